"""The glossary's entries: each word the explorer, the readout and the settings show, with its meaning.

The meanings live here alone; ``app.explorer.glossary`` shows them (terms, tooltips, the list).  Plain Python for
MicroPython (a tuple keeps the order, which MicroPython's dicts do not).
"""

ENTRIES = (
    (
        "alpha-beta",
        "Alpha-beta",
        "Minimax that skips what cannot change the answer: once a reply proves a move "
        "no better than one already found, the move's other replies are not searched. Same move, fewer nodes.",
    ),
    (
        "minimax",
        "Minimax",
        "Search that assumes the player (max) picks the best move and the computer (min) the "
        "placement worst for the player, down to a fixed depth.",
    ),
    (
        "expectimax",
        "Expectimax",
        "Search that treats the new tile as chance: a 2 or a 4 (0.9 and 0.1) in any empty "
        "cell, each weighted by its probability, instead of assuming the worst.",
    ),
    (
        "depth",
        "Depth",
        "How many of the player's moves ahead the search looked; the tiles placed in between do not count.",
    ),
    (
        "iterative-deepening",
        "Iterative deepening",
        "Searching depth 1, then 2, then 3\u2026 until the think time "
        "runs out; the deepest finished search decides, and each one orders the moves of the next.",
    ),
    ("node", "Node", "A position the search looked at: each legal move and each placed tile it tried counts one."),
    ("speed", "Speed", "Nodes searched per second of think time."),
    (
        "cutoff",
        "Cutoff",
        "A place where the search stopped early: alpha-beta once \u03b1 \u2265 \u03b2 (the rest "
        "cannot change the choice); expectimax when a tile sequence is too unlikely to matter.",
    ),
    (
        "table-hit",
        "Table hit",
        "A position found in the transposition table: searched before at the same depth, "
        "so its value is reused instead of searched again.",
    ),
    (
        "transposition-table",
        "Transposition table",
        "The search's memory of positions it has valued, by depth; "
        "the same board reached by two paths is searched once.",
    ),
    (
        "move-ordering",
        "Move ordering",
        "Trying the move that was best at the previous depth first: alpha-beta "
        "then proves the others worse sooner and prunes more.",
    ),
    (
        "alpha",
        "\u03b1 (alpha)",
        "The value the player is already sure of along the path: a reply worth no more "
        "than \u03b1 need not be looked at further.",
    ),
    (
        "beta",
        "\u03b2 (beta)",
        "The value the computer is already sure of along the path: a move worth \u03b2 or "
        "more will never be allowed, so its other replies are pruned.",
    ),
    (
        "bound",
        "Bound (\u2264)",
        "What alpha-beta proved without the exact value: the move is worth at most this, "
        "so no more than the chosen move. Exact values searches it again for its real value.",
    ),
    ("exact", "Exact value", "The move's real minimax (or expected) value at this depth, not only a bound."),
    (
        "pv",
        "Principal variation",
        "The line of moves and tiles the search expects if both sides play as it "
        "predicts; its last board is the one the evaluation scored.",
    ),
    ("horizon", "Horizon", "The depth where the search stops and scores the board with the evaluation."),
    (
        "evaluation",
        "Evaluation",
        "The score of a board at the horizon: a weighted sum of its features (the "
        "preset), or the learned network's value.",
    ),
    ("preset", "Preset", "A named evaluation with its weights: classic, rows, snake, corner-weights, learned."),
    (
        "reduction",
        "Min-node reduction",
        "ovolve's shortcut: the computer's turn keeps only its most annoying "
        "placements instead of every 2 and 4 in every empty cell. Expectimax does not use it.",
    ),
    (
        "annoyance",
        "Annoyance",
        "How bad a placed tile is for the player: \u2212smoothness + islands of the board "
        "after it. The reduction keeps the highest.",
    ),
    ("islands", "Islands", "Groups of equal tiles that touch (up, down, left, right): more islands, fewer merges."),
    (
        "smoothness",
        "Smoothness",
        "Minus the rank differences between neighbouring tiles, in rank steps (a tile's rank is its power of 2: "
        "256 is 8, so a 256 beside a 64 is 2 steps): smooth boards merge easily.",
    ),
    (
        "monotonicity",
        "Monotonicity",
        "How steadily the tiles grow toward one side along each row and column; steps the wrong way cost.",
    ),
    (
        "empty-cells",
        "Empty cells",
        "Free cells on the board: room to move. classic takes the natural logarithm of their count (ln 7 = 1.95; a "
        "full board counts as half a cell), snake the count, rows the count in each row plus each column (every "
        "empty cell twice).",
    ),
    (
        "chance-node",
        "Chance node",
        "In expectimax, the moment the game places a tile: its value is the "
        "probability-weighted mean over every 2 and 4 in every empty cell.",
    ),
    (
        "ply",
        "Ply",
        "One turn of one side: a player's move, or the computer's tile. Depth counts the player's moves only, "
        "so depth 2 is four plies (move, tile, move, tile).",
    ),
    (
        "leaf",
        "Leaf",
        "A node the search does not expand: the board at the horizon, scored by the evaluation, or a won or "
        "lost board. Counting leaves compares searches of the same tree.",
    ),
    (
        "upper-bound",
        "Upper bound",
        "A value the real one is at most (\u2264): alpha-beta stopped searching a node once it could not beat "
        "what the player already had, so it knows only that much.",
    ),
    (
        "lower-bound",
        "Lower bound",
        "A value the real one is at least (\u2265): a player's node cut off because the computer already had a "
        "better reply elsewhere.",
    ),
    (
        "runner-up",
        "Runner-up",
        "The best move after the chosen one, by exact value: comparing their evaluations term by term shows what "
        "made the difference.",
    ),
    (
        "largest-tile",
        "Largest tile",
        "The rank of the biggest tile (its power of 2: 2048 is 11); classic and snake reward growing it.",
    ),
    (
        "repeats",
        "Repeated values",
        "Minus the tiles that share their value with another tile: duplicates that have not merged yet "
        "(snake; weight 0 unless you raise it).",
    ),
    ("mean-rank", "Mean rank", "The tiles' average rank (power of 2); snake can reward it (weight 0 by default)."),
    (
        "lines-playable",
        "Lines still playable",
        "rows' constant per row and column (lost_penalty, 8 lines): every board still in play scores it, a lost "
        "board scores 0, so expectimax fears losing.",
    ),
    (
        "merges",
        "Merges",
        "Runs of equal tiles along a row or column, empty cells skipped: each run of k counts k. Merges ready "
        "to happen (rows; merges_weight).",
    ),
    (
        "big-tiles",
        "Big tiles",
        "rows' charge on the tiles themselves, \u2212sum_weight \u00d7 \u03a3 rank^sum_power: fewer, larger tiles "
        "cost less than many, so merging pays.",
    ),
    (
        "power",
        "Power",
        "An exponent on each tile's rank (rows' monotonicity_power and sum_power): the higher, the more the big "
        "tiles count in that term.",
    ),
    (
        "weight",
        "Weight",
        "The number a term is multiplied by before the terms are added: the sliders. A weight named *_weight "
        "multiplies its term; 0 switches it off.",
    ),
    (
        "path",
        "Snake path",
        "corner-weights: a path through all 16 cells from a corner (row_snake, spiral, zigzag); a tile's value "
        "counts by its place on the path, and the best path and corner are taken.",
    ),
    (
        "decay",
        "Decay",
        "corner-weights: how much each step along the path counts less than the one before (0.5: half).",
    ),
    (
        "n-tuple-network",
        "N-tuple network",
        "The learned evaluation: a few patterns of cells, each with a table of weights, one weight for every "
        "combination of tiles the pattern can see. Its value is the sum of the weights it looks up.",
    ),
    (
        "pattern",
        "Pattern",
        "A fixed group of cells (here six) the network reads, on the board and its 7 rotations and mirror "
        "images; the tiles it sees pick one weight. Pattern 1\u20134 are drawn where they are named.",
    ),
    (
        "network-weight",
        "Network weight",
        "What the network's table holds for one combination of tiles: the points it learned that such boards "
        "go on to score. The learned preset's only slider, network, multiplies them all (1: as trained; 0: the "
        "tiles' points alone).",
    ),
    (
        "td-learning",
        "TD learning",
        "How the network was trained: playing itself, it nudged each weight toward what the next board was "
        "worth plus the points scored (temporal-difference learning; TD(0) takes one step ahead), over more than "
        "a million games in all.",
    ),
    (
        "afterstate",
        "Afterstate",
        "The board right after the player's move, before the game places its tile: what the network values, and "
        "what its training learns, so a move's value needs no guess about the tile.",
    ),
    (
        "td-lambda",
        "TD(\u03bb)",
        "TD learning that waits for an episode's end and learns its boards backwards, last first: each moves "
        "toward a mix, by \u03bb (0.5 here), of what the next board was worth and what the game really went on "
        "to score, so a game's end reaches back many moves at once.",
    ),
    (
        "restart",
        "Restarts",
        "The restart strategy (Matsuzaki 2016): once a game is over it is played again from the board halfway "
        "through its last episode (the stretch from where it began to the end), and again, until an episode has "
        "at most 10 moves. A game then trains about four times its own moves, most of them late.",
    ),
    (
        "temporal-coherence",
        "Temporal coherence",
        "Each weight learns at its own rate: \u03b1 times |the sum of its errors| / the sum of their sizes. A "
        "weight whose errors keep one sign learns at the full rate; one whose errors cancel out slows down "
        "(Beal & Smith 1999; Ja\u015bkowski 2018).",
    ),
    (
        "learning-rate",
        "Learning rate (\u03b1)",
        "How far one update moves each weight it reads: \u03b1 times the error, the difference between what the "
        "network said and what the next board showed.",
    ),
    (
        "stage",
        "Stage",
        "A set of tables of its own for some boards only: the shipped network values boards below 8192 with "
        "one stage and boards from 8192 up with another, each trained on its own boards.",
    ),
    (
        "greedy",
        "Greedy play",
        "Each move chosen by the evaluation of the board it leads to, with no search ahead (depth 1): how the lab "
        "measures a network by itself. The page's AI searches deeper with it.",
    ),
    (
        "cell-share",
        "A cell's share",
        "The network's heat map splits its value over the cells: each weight it looks up is shared equally among "
        "the six cells its pattern's image reads. A cell read by more images collects more, whether it holds a "
        "tile or is empty (in the shipped network a middle cell is read by 20 images, an edge cell by 11, a "
        "corner by 6), so a share says where the value is read, not what one tile is worth.",
    ),
    (
        "tiles-points",
        "The tiles' points",
        "What the tiles on the board scored when they were made (a 4 made from two 2s scored 4, and so on); the "
        "learned evaluation adds the network's expectation to it.",
    ),
    ("think-time", "Think time", "How long the AI searches for each move; it plays the deepest finished depth."),
    (
        "workers",
        "Workers",
        "Background threads the AI searches in. Expectimax shares a decision among them, each searching some "
        "of the moves (every move to depth 2), and plays the deepest depth all of them finished.",
    ),
)
"""(key, word, meaning), in the glossary's order."""

WORD_TERMS = {
    # the evaluation's terms, as the explorer words them (game2048.evaluation.terms.TERM_NAMES)
    "smoothness": "smoothness",
    "monotonicity": "monotonicity",
    "empty cells": "empty-cells",
    "largest tile": "largest-tile",
    "repeated values": "repeats",
    "mean rank": "mean-rank",
    "lines still playable": "lines-playable",
    "merges": "merges",
    "big tiles": "big-tiles",
    "row-snake path": "path",
    "spiral path": "path",
    "zigzag path": "path",
    "the tiles' points": "tiles-points",
    # the presets' weights, as the sliders name them
    "empty": "empty-cells",
    "max": "largest-tile",
    "repeats": "repeats",
    "mean": "mean-rank",
    "lost_penalty": "lines-playable",
    "monotonicity_power": "power",
    "monotonicity_weight": "monotonicity",
    "sum_power": "power",
    "sum_weight": "big-tiles",
    "merges_weight": "merges",
    "empty_weight": "empty-cells",
    "row_snake": "path",
    "spiral": "path",
    "zigzag": "path",
    "decay": "decay",
    "network": "network-weight",
}
"""The glossary entry of each word the explorer's terms table and the weight sliders show (a learned
pattern, "pattern N", is the entry ``pattern``)."""
