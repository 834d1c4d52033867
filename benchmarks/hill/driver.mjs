// Headless driver for D. N. Hill's JSMinesweeper solver (github.com/DavidNHill/JSMinesweeper).
//
// None of Hill's code is in this file: it loads his browser scripts, unchanged, from the
// checkout given with --hill into one V8 context (as the browser's <script> tags share one
// global scope), and calls his `solver(board, options)` on his `Board`. The game itself
// (mines, the flood fill that opens zeros, what a win is) is ours, the same rules as
// deductive.engine.minesweeper.board.Board: a click on a mine loses; a click on a 0 opens
// its neighbours, repeatedly; the game is won when every cell without a mine is open.
//
// Usage:
//   node driver.mjs --hill PATH play  < games.jsonl  > results.jsonl
//       One game per input line: {"rows": R, "cols": C, "mines": [flat cells], "first": cell}
//       (cells row-major from 0, as deductive numbers them: cell = row * cols + col).
//       One result per line: {"won": bool, "guesses": n, "clicks": n, "ms": t}, with
//       "stalled": true when the solver named no cell to open (counted as lost).
//   node driver.mjs --hill PATH play --moves  < games.jsonl  > results.jsonl
//       The same, each result with "moves": [[cell, safety], ...], every click after the
//       first in order, with the probability of being safe the solver gave it (1: sure).
//   node driver.mjs --hill PATH play --fixed-clock  < games.jsonl  > results.jsonl
//       The same, Hill's scripts seeing a clock that never moves (see loadHill): play then
//       does not depend on the machine's speed. On 300 zero-start expert games at load 4
//       on 2 cores, every move was the same with and without it.
//   node driver.mjs --hill PATH query  < positions.jsonl  > actions.jsonl
//       What the solver would do in a position: {"rows", "cols", "mines": total, "cells":
//       [per cell -1 covered, 0-8 revealed]} in (row-major), {"actions": [[cell, safety,
//       kind], ...]} out, in the solver's order; kind 1 clear, 2 flag, 3 chord, 0 when the
//       solver left it unset (its page clears such a cell).
//   node driver.mjs rules  < games.jsonl
//       Our rules alone (no solver): {"rows", "cols", "mines", "clicks": [cells]} in,
//       {"open": [0 or 1 per cell], "won", "lost"} out; the tests hold it to deductive's.
//   node driver.mjs --hill PATH own --seed S --games N [--modern]
//       Hill's own expert games: his generator (ServerGame) seeded as his bulk-run helper
//       seeds them (game seeds drawn from his JSF generator seeded S), first click at (0,0)
//       safe, or with --modern at (3,3) opening a zero; played here with our rules.
//       One result line per game (with "seed"), then {"games": N, "wins": W}.
//
// How the solver is asked (the options of Hill's own bulk-run helper): no flags placed,
// advanced guessing on, full probability on, not verbose. Each turn every action the
// solver is sure of (probability 1 of being safe) is played; an action it is not sure of
// (a guess) is played only when it comes first, and nothing after it.

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import vm from "node:vm";

// Hill's scripts, in the order his index.html loads the ones the solver needs.
const SCRIPTS = [
    "Minesweeper/Utility/PrimeSieve.js",
    "Minesweeper/Utility/Binomial.js",
    "Minesweeper/client/Tile.js",
    "Minesweeper/client/Board.js",
    "Minesweeper/client/solver_main.js",
    "Minesweeper/client/solver_probability_engine.js",
    "Minesweeper/client/Brute_force.js",
    "Minesweeper/client/BruteForceAnalysis.js",
    "Minesweeper/client/MinesweeperGame.js",
    "Minesweeper/client/SolutionCounter.js",
    "Minesweeper/client/EfficiencyHelper.js",
    "Minesweeper/client/FiftyFiftyHelper.js",
    "Minesweeper/client/LongTermRiskHelper.js",
];

// What his page (main.js, not loaded: it needs a browser) declares that the solver reads,
// at the page's defaults: play mode (not analysis), the generator's current seeding (the
// "old" one only on request in its URL), two tile codes, and the binomial tables, sized as
// the page sizes them. The page's current `board` is read too (LongTermRiskHelper reads the
// board's size from it): it is set to the board being played, as when the page plays.
const PAGE_SETUP = "var analysisMode = false, analysing = false, oldrng = false, board = null; " +
    "var BOMB = 9, HIDDEN = 10; " +
    "var binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));";

function fail(message) {
    process.stderr.write(`error: ${message}\n`);
    process.exit(2);
}

function parseArgs(argv) {
    const args = { hill: process.env.HILL_JSMINESWEEPER || null, command: null, seed: 0,
                   games: 100, modern: false, moves: false, fixedClock: false };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === "--hill") args.hill = argv[++i];
        else if (a === "--seed") args.seed = Number(argv[++i]);
        else if (a === "--games") args.games = Number(argv[++i]);
        else if (a === "--modern") args.modern = true;
        else if (a === "--moves") args.moves = true;
        else if (a === "--fixed-clock") args.fixedClock = true;
        else if (a === "play" || a === "own" || a === "rules" || a === "query") args.command = a;
        else fail(`unknown argument ${JSON.stringify(a)}; see the usage at the top of driver.mjs`);
    }
    if (!args.command)
        fail("give a command: play or query (games or positions on stdin), own (Hill's generator) or rules");
    if (!args.hill && args.command !== "rules")
        fail("give the JSMinesweeper checkout with --hill PATH (or HILL_JSMINESWEEPER)");
    if (!Number.isInteger(args.seed) || !Number.isInteger(args.games) || args.games < 1)
        fail("--seed and --games take whole numbers, --games at least 1");
    return args;
}

// Load Hill's scripts into one context; return the names the driver calls.
function loadHill(root, fixedClock = false) {
    const quiet = () => {};
    // His solver skips its tie-break when its probability engine took 50 ms or more, so
    // how it plays depends on the machine and its load. With --fixed-clock his scripts see
    // a clock that never moves: every engine run takes 0 ms, as on an infinitely fast
    // machine, and play is the same on any machine.
    const clock = fixedClock ? {
        Date: class extends Date { static now() { return 0; } },
        performance: { now: () => 0 },
    } : { Date, performance };
    const sandbox = {
        console: { log: quiet, error: quiet, warn: quiet, info: quiet, debug: quiet },
        setTimeout, clearTimeout, Math, ...clock,
        showMessage: quiet,                 // his page's status line
        // His page's pause, which lets the browser draw during long searches; here there is
        // nothing to draw, so it only yields (it decides nothing).
        sleep: () => Promise.resolve(),
    };
    vm.createContext(sandbox);
    for (const rel of SCRIPTS) {
        const file = path.join(root, rel);
        if (!fs.existsSync(file))
            fail(`${file} is missing; --hill must be a checkout of DavidNHill/JSMinesweeper`);
        vm.runInContext(fs.readFileSync(file, "utf8"), sandbox, { filename: file });
    }
    vm.runInContext(PAGE_SETUP, sandbox);
    const get = (name) => vm.runInContext(name, sandbox);
    return {
        Board: get("Board"), solver: get("solver"), ServerGame: get("ServerGame"),
        JSF: get("JSF"), ACTION_CLEAR: get("ACTION_CLEAR"), page: sandbox,
    };
}

function neighbours(rows, cols, cell) {
    const r = Math.floor(cell / cols), c = cell % cols, out = [];
    for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
            const rr = r + dr, cc = c + dc;
            if ((dr || dc) && rr >= 0 && rr < rows && cc >= 0 && cc < cols) out.push(rr * cols + cc);
        }
    return out;
}

// Our rules: one game on a fixed layout, the solver's board told what each click opens.
class Game {
    constructor(rows, cols, mines) {
        this.rows = rows; this.cols = cols; this.n = rows * cols;
        this.mine = new Uint8Array(this.n);
        for (const m of mines) this.mine[m] = 1;
        this.mineCount = mines.length;
        this.number = new Int8Array(this.n);
        this.nbrs = [];
        for (let k = 0; k < this.n; k++) {
            this.nbrs.push(neighbours(rows, cols, k));
            for (const j of this.nbrs[k]) this.number[k] += this.mine[j];
        }
        this.open = new Uint8Array(this.n);
        this.opened = 0;
        this.lost = false;
    }

    get won() { return !this.lost && this.opened === this.n - this.mineCount; }

    // Click a cell; return the cells it opened (flood fill through zeros).
    click(cell) {
        if (this.open[cell]) return [];
        if (this.mine[cell]) { this.lost = true; return []; }
        const stack = [cell], opened = [];
        this.open[cell] = 1;
        while (stack.length) {
            const k = stack.pop();
            opened.push(k);
            if (this.number[k] !== 0) continue;
            for (const j of this.nbrs[k])
                if (!this.open[j] && !this.mine[j]) { this.open[j] = 1; stack.push(j); }
        }
        this.opened += opened.length;
        return opened;
    }
}

const OPTIONS = () => ({ playStyle: 2 /* no flags */, verbose: false, advancedGuessing: true,
                         fullProbability: true, hardcore: false });

async function playLayout(hill, rows, cols, mines, first, log = null) {
    const start = performance.now();
    const game = new Game(rows, cols, mines);
    const board = new hill.Board(0, cols, rows, mines.length, 0, "safe");
    hill.page.board = board;
    const reveal = (cells) => { for (const k of cells) board.getTile(k).setValue(game.number[k]); };
    let guesses = 0, clicks = 1, turns = 0;
    reveal(game.click(first));
    while (!game.lost && !game.won) {
        if (++turns > 100000) throw new Error("the solver made no progress");
        const reply = await hill.solver(board, OPTIONS());
        let played = false;
        for (let i = 0; i < reply.actions.length; i++) {
            const action = reply.actions[i];
            // No flags, no chords; a clear whose kind the solver left unset is a clear, as on
            // his page (his off-edge guess sets none).
            if (action.action !== hill.ACTION_CLEAR && action.action !== undefined) continue;
            const sure = action.prob === 1;
            if (!sure && i !== 0) break;
            const cell = action.y * cols + action.x;
            if (!sure) guesses++;
            clicks++;
            if (log) log.push([cell, action.prob]);
            played = true;
            reveal(game.click(cell));
            if (game.lost || game.won || !sure) break;
        }
        // Hill's helper would ask again, get the same answer and give up: a lost game.
        if (!played) return { won: false, guesses, clicks, stalled: true,
                              ms: +(performance.now() - start).toFixed(3) };
    }
    return { won: game.won, guesses, clicks, ms: +(performance.now() - start).toFixed(3) };
}

// Our rules alone, without Hill's solver (the tests compare them with deductive's Board):
// {"rows", "cols", "mines", "clicks": [cells]} -> {"open": [0/1 per cell], "won", "lost"}.
async function rules() {
    for await (const g of inputs()) {
        const game = new Game(g.rows, g.cols, g.mines);
        for (const cell of g.clicks) { game.click(cell); if (game.lost) break; }
        process.stdout.write(JSON.stringify({ open: Array.from(game.open), won: game.won,
                                              lost: game.lost }) + "\n");
    }
}

// Each line of stdin that is not blank, parsed; one that is not JSON ends the run (exit 2).
async function* inputs() {
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    let lineNo = 0;
    for await (const line of lines) {
        lineNo++;
        if (!line.trim()) continue;
        let parsed;
        try { parsed = JSON.parse(line); } catch { fail(`line ${lineNo} is not JSON`); }
        yield parsed;
    }
}

async function play(hill, withMoves) {
    for await (const g of inputs()) {
        const log = withMoves ? [] : null;
        const result = await playLayout(hill, g.rows, g.cols, g.mines, g.first, log);
        process.stdout.write(JSON.stringify(withMoves ? { ...result, moves: log } : result) + "\n");
    }
}

async function query(hill) {
    for await (const p of inputs()) {
        const board = new hill.Board(0, p.cols, p.rows, p.mines, 0, "safe");
        hill.page.board = board;
        p.cells.forEach((v, k) => { if (v >= 0) board.getTile(k).setValue(v); });
        const reply = await hill.solver(board, OPTIONS());
        const actions = reply.actions.map(a => [a.y * p.cols + a.x, a.prob, a.action || 0]);
        process.stdout.write(JSON.stringify({ actions }) + "\n");
    }
}

// Hill's generator as his bulk-run helper seeds it (expert, 30 wide and 16 high).
async function own(hill, seed, games, modern) {
    const rng = hill.JSF(seed);
    const first = modern ? 3 * 30 + 3 : 0;
    let wins = 0;
    for (let g = 0; g < games; g++) {
        const gameSeed = Math.round(rng() * Number.MAX_SAFE_INTEGER);
        const server = new hill.ServerGame(0, 30, 16, 99, first, gameSeed, modern ? "zero" : "safe");
        const mines = [];
        for (let k = 0; k < 30 * 16; k++) if (server.getTile(k).isBomb()) mines.push(k);
        const result = await playLayout(hill, 16, 30, mines, first);
        wins += result.won;
        process.stdout.write(JSON.stringify({ seed: gameSeed, ...result }) + "\n");
    }
    process.stdout.write(JSON.stringify({ games, wins }) + "\n");
}

const args = parseArgs(process.argv.slice(2));
if (args.command === "rules") {
    await rules();
} else {
    const hill = loadHill(args.hill, args.fixedClock);
    await hill.solver(null);      // his page's start-up call: it sets the solver's entry points
    if (args.command === "play") await play(hill, args.moves);
    else if (args.command === "query") await query(hill);
    else await own(hill, args.seed, args.games, args.modern);
}
