"""The HDF5 store of pattern matrices. Only this package imports h5py."""

from .store import FORMAT_VERSION, CacheSummary, PatternStore, default_cache_dir

__all__ = ["PatternStore", "CacheSummary", "default_cache_dir", "FORMAT_VERSION"]
