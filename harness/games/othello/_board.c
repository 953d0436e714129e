/* Othello positions as a tree, compiled: the twin of OthelloTree in tree.py.
 *
 * The search frame calls a tree's methods several times a node (moves, push, pop, key,
 * value or child_value); in Python each is a frame and a few dozen big-integer
 * operations. Here each is one C call on two 64-bit words. Everything mirrors tree.py:
 * the same bitboards (square 8 * row + column from A1 = 0; `mover` has the discs of the
 * player to move, `opponent` the other's), the same moves in the same order (the ranks of
 * MOVE_RANKS, then the square; PASS = 64 alone when the mover has no square and the
 * opponent has), the same values (the end of the game exact, else the heuristic) and the
 * same keys. The tables are not copied here: the constructor receives tree.py's
 * SQUARE_WEIGHTS, MOVE_RANKS and MOBILITY_WEIGHT (compiled.py passes them).
 * tests/test_othello_compiled.py compares the two trees method by method and search by
 * search. Bad moves (not an int, off the board, not legal here) raise ValueError or
 * TypeError in both. The cursor, the methods every compiled tree shares and the native
 * interface are ../board_cursor.h's, over the game_ functions here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

#define FULL (~(u64)0)
#define NOT_A 0xFEFEFEFEFEFEFEFEULL   /* tree.NOT_A: every square but column A */
#define NOT_H 0x7F7F7F7F7F7F7F7FULL   /* tree.NOT_H: every square but column H */
#define PASS 64                       /* tree.PASS */
#define MAX_VALUE 64                  /* tree.MAX_VALUE */
#define CORNERS 0x8100000000000081ULL      /* tree.CORNERS: A1, H1, A8, H8 */
#define SPLITMIX_1 0xBF58476D1CE4E5B9ULL   /* tree.KEY_MIX */
#define SPLITMIX_2 0x94D049BB133111EBULL

typedef struct {
    u64 mover, opponent;     /* as Board */
    int x_to_move;
} State;

typedef struct {
    int ranks;                   /* the number of move ranks */
    u64 rank_masks[64];          /* tree.RANK_MASKS */
    int weights;                 /* the number of non-zero weights */
    int weight[64];              /* tree.WEIGHT_MASKS: each weight ... */
    u64 weight_masks[64];        /* ... and its squares */
    int mobility;                /* tree.MOBILITY_WEIGHT */
    int killers_on, history_on;  /* OthelloTree's killers and history (../board_learning.h) */
} Game;

#define BOARD_PLIES 130               /* a game lasts at most 2 * 60 plies from the start */
#define BOARD_NAME "Othello tree"
#define BOARD_CACHED_MOVES (PASS + 1)
#define BOARD_TACTICAL game_tactical
#define BOARD_SET_APART game_set_apart   /* killers and history: a corner or a pass is not */
#define BOARD_HISTORY_SIZE 64            /* a quiet move is a square */
#include "../board_cursor.h"

/* tree.legal_moves: empty squares closing a line of the opponent's discs. Edax's
 * get_moves (Richard Delorme) without SIMD: for each axis, the lines of the opponent's
 * discs grown from the mover's both ways at once, in doubling steps; `inner` (the
 * opponent's discs off columns A and H) stops a line at the board's side edges. Its
 * results are tree.py's flood fill's (the diff tests compare them). */
static inline u64 axis_moves(u64 mover, u64 inner, int dir) {
    const int dir2 = dir + dir;
    u64 flip_l = inner & (mover << dir), flip_r = inner & (mover >> dir);
    flip_l |= inner & (flip_l << dir);
    flip_r |= inner & (flip_r >> dir);
    u64 pair_l = inner & (inner << dir), pair_r = pair_l >> dir;
    flip_l |= pair_l & (flip_l << dir2);
    flip_r |= pair_r & (flip_r >> dir2);
    flip_l |= pair_l & (flip_l << dir2);
    flip_r |= pair_r & (flip_r >> dir2);
    return (flip_l << dir) | (flip_r >> dir);
}

static inline u64 legal_moves(u64 mover, u64 opponent) {
    const u64 inner = opponent & 0x7E7E7E7E7E7E7E7EULL;
    return (axis_moves(mover, inner, 1) | axis_moves(mover, opponent, 8)
            | axis_moves(mover, inner, 7) | axis_moves(mover, inner, 9)) & ~(mover | opponent);
}

/* The discs of one direction a disc on `bit` turns over: a run of the opponent's discs
 * ended by one of the mover's (tree.flips walks the same way). SHIFT is constant in each
 * use, so each direction compiles to its own loop. */
#define RUN(SHIFTED, KEEP) do {                                  \
        u64 line = 0, step = SHIFTED(bit & (KEEP));                \
        while (step & opponent) {                                 \
            line |= step;                                         \
            step = SHIFTED(step & (KEEP));                        \
        }                                                         \
        if (step & mover)                                         \
            turned |= line;                                       \
    } while (0)
#define E(x) ((x) << 1)
#define W(x) ((x) >> 1)
#define N(x) ((x) << 8)
#define S(x) ((x) >> 8)
#define NE(x) ((x) << 9)
#define NW(x) ((x) << 7)
#define SE(x) ((x) >> 7)
#define SW(x) ((x) >> 9)

/* tree.flips: the opponent's discs a disc of `mover` on `square` turns over. */
static inline u64 flips(u64 mover, u64 opponent, int square) {
    const u64 bit = (u64)1 << square;
    u64 turned = 0;
    RUN(E, NOT_H);
    RUN(W, NOT_A);
    RUN(N, FULL);
    RUN(S, FULL);
    RUN(NE, NOT_H);
    RUN(NW, NOT_A);
    RUN(SE, NOT_H);
    RUN(SW, NOT_A);
    return turned;
}
#undef RUN
#undef E
#undef W
#undef N
#undef S
#undef NE
#undef NW
#undef SE
#undef SW

/* tree.final_value: the disc difference, the empty squares to the winner. */
static inline long final_value(u64 mover, u64 opponent) {
    long difference = __builtin_popcountll(mover) - __builtin_popcountll(opponent);
    long empty = 64 - __builtin_popcountll(mover | opponent);
    return difference > 0 ? difference + empty : difference < 0 ? difference - empty : 0;
}

/* tree.evaluate: square weights and mobility, clamped inside the final values. */
static inline long evaluate(const Game *g, u64 mover, u64 opponent, u64 mine, u64 theirs) {
    long value = (long)g->mobility * (__builtin_popcountll(mine) - __builtin_popcountll(theirs));
    for (int i = 0; i < g->weights; i++)
        value += (long)g->weight[i] * (__builtin_popcountll(mover & g->weight_masks[i])
                                       - __builtin_popcountll(opponent & g->weight_masks[i]));
    if (value > MAX_VALUE - 1)
        return MAX_VALUE - 1;
    return value < -(MAX_VALUE - 1) ? -(MAX_VALUE - 1) : value;
}

/* OthelloTree.value: the end of the game exact, else the heuristic. */
static long game_value(const Game *g, const State *s, int ply) {
    u64 mine = legal_moves(s->mover, s->opponent), theirs = legal_moves(s->opponent, s->mover);
    if (!mine && !theirs)
        return final_value(s->mover, s->opponent);
    return evaluate(g, s->mover, s->opponent, mine, theirs);
}

/* tree.mix: splitmix64's finaliser. */
static inline u64 mix(u64 x) {
    x = (x ^ (x >> 30)) * SPLITMIX_1;
    x = (x ^ (x >> 27)) * SPLITMIX_2;
    return x ^ (x >> 31);
}

/* OthelloTree.moves into out[], in search order (the ranks, then the square); the count. */
static int game_moves(const Game *g, const State *s, Move *out) {
    u64 legal = legal_moves(s->mover, s->opponent);
    if (!legal) {
        if (!legal_moves(s->opponent, s->mover))
            return 0;
        out[0] = PASS;
        return 1;
    }
    int n = 0;
    for (int r = 0; r < g->ranks; r++) {
        u64 bits = legal & g->rank_masks[r];
        while (bits) {
            out[n++] = __builtin_ctzll(bits);
            bits &= bits - 1;
        }
    }
    return n;
}

/* tree.position_key */
static uint64_t game_key(const Game *g, const State *s) {
    return mix(s->mover ^ mix(s->opponent ^ SPLITMIX_1));
}

/* ---- the game's side of the cursor (../board_cursor.h) ------------------------------- */

/* The square a move argument names, or -1 with a Python exception: not an int, off the
 * board, an illegal square or a pass while a square is legal (OthelloTree.push's checks). */
static int game_move_of(const Game *g, const State *s, PyObject *move, Move *out) {
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "an Othello move is a square (int, 64: pass), not %.100s",
                     Py_TYPE(move)->tp_name);
        return -1;
    }
    int overflow;
    long square = PyLong_AsLongAndOverflow(move, &overflow);
    if (square == -1 && PyErr_Occurred())
        return -1;
    if (overflow || square < 0 || square > PASS) {
        PyErr_Format(PyExc_ValueError, "square %R is off the board (0 to 63, 64: pass)", move);
        return -1;
    }
    if (square == PASS) {
        if (legal_moves(s->mover, s->opponent)) {
            PyErr_SetString(PyExc_ValueError, "a pass while a square is legal");
            return -1;
        }
    } else if ((((u64)1 << square) & (s->mover | s->opponent))
               || !flips(s->mover, s->opponent, (int)square)) {
        PyErr_Format(PyExc_ValueError, "square %ld is not a legal move here", square);
        return -1;
    }
    *out = square;
    return 0;
}

/* The state after a legal square (or PASS where it is the only move). */
static void game_play(const Game *g, const State *s, Move square, State *out) {
    if (square == PASS) {
        out->mover = s->opponent;
        out->opponent = s->mover;
    } else {
        u64 bit = (u64)1 << square, turned = flips(s->mover, s->opponent, (int)square);
        out->mover = s->opponent ^ turned;
        out->opponent = s->mover | turned | bit;
    }
    out->x_to_move = !s->x_to_move;
}

/* The game is over: neither player has a square. */
static int game_is_leaf(const Game *g, const State *s) {
    return !legal_moves(s->mover, s->opponent) && !legal_moves(s->opponent, s->mover);
}

static long game_terminal_value(const Game *g, const State *s, int ply) {
    return final_value(s->mover, s->opponent);
}

/* OthelloTree.tactical: a move that takes a corner (a pass never does: bit 64 is none). */
static int game_tactical(const Game *g, const State *s, Move square) {
    return square < PASS && (CORNERS >> square & 1);
}

/* A corner or the pass: first in the static order, never a killer nor scored by history
 * (OthelloTree.moves and OthelloTree.cutoff). */
static int game_set_apart(const Game *g, const State *s, Move square) {
    return square == PASS || (CORNERS >> square & 1);
}

/* ---- construction: OthelloTree(board, weights, ranks, mobility, killers, history) ------ */

/* 64 ints from a sequence (a table of tree.py), each in [low, high]; -1 with an exception. */
static int table(PyObject *sequence, const char *what, long low, long high, long *out) {
    PyObject *fast = PySequence_Fast(sequence, "a table of 64 ints");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 64) {
        PyErr_Format(PyExc_ValueError, "%s: 64 squares, not %zd", what, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < 64; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (out[i] < low || out[i] > high) {
            PyErr_Format(PyExc_ValueError, "%s: square %d is %ld, not within %ld to %ld", what, i,
                         out[i], low, high);
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static int game_new(PyObject *args, PyObject *kwargs, Game *g, State *root) {
    static char *keywords[] = {"board", "weights", "ranks", "mobility", "killers", "history",
                               NULL};
    PyObject *board, *weights_table, *ranks_table;
    int mobility, killers = 0, history = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOi|pp:OthelloTree", keywords, &board,
                                     &weights_table, &ranks_table, &mobility, &killers, &history))
        return -1;
    long weights[64], ranks[64];
    if (table(weights_table, "weights", -1000, 1000, weights) < 0
            || table(ranks_table, "ranks", 0, 63, ranks) < 0)
        return -1;
    if (mobility < -1000 || mobility > 1000) {
        PyErr_Format(PyExc_ValueError, "mobility %d: not within -1000 to 1000", mobility);
        return -1;
    }
    u64 mover, opponent, x_to_move;
    if (board_u64_attr(board, "mover", &mover) || board_u64_attr(board, "opponent", &opponent)
            || board_u64_attr(board, "x_to_move", &x_to_move))
        return -1;
    if (mover & opponent) {
        PyErr_SetString(PyExc_ValueError, "not an Othello position: a square holds both players' discs");
        return -1;
    }
    /* tree.RANK_MASKS and tree.WEIGHT_MASKS: ranks 0 up; weights ascending, 0 left out */
    long top = 0;
    for (int i = 0; i < 64; i++)
        top = ranks[i] > top ? ranks[i] : top;
    g->ranks = (int)top + 1;
    for (int i = 0; i < 64; i++)
        g->rank_masks[ranks[i]] |= (u64)1 << i;
    for (long w = -1000; w <= 1000; w++) {
        u64 squares = 0;
        for (int i = 0; i < 64; i++)
            if (weights[i] == w && w != 0)
                squares |= (u64)1 << i;
        if (squares) {
            g->weight[g->weights] = (int)w;
            g->weight_masks[g->weights++] = squares;
        }
    }
    g->mobility = mobility;
    g->killers_on = killers;
    g->history_on = history;
    root->mover = mover;
    root->opponent = opponent;
    root->x_to_move = x_to_move != 0;
    return 0;
}

/* ---- the Python methods of this tree alone ------------------------------------------- */

/* tree.square_name: a1 .. h8, pass (any int, as Python's; off the board is an error). */
static PyObject *Tree_move_name(Tree *self, PyObject *move) {
    long square = PyLong_AsLong(move);
    if (square == -1 && PyErr_Occurred())
        return NULL;
    if (square == PASS)
        return PyUnicode_FromString("pass");
    if (square < 0 || square > PASS) {
        PyErr_Format(PyExc_ValueError, "square %ld is off the board (0 to 63, 64: pass)", square);
        return NULL;
    }
    return PyUnicode_FromFormat("%c%c", (int)("abcdefgh"[square % 8]), (int)('1' + square / 8));
}

/* "X" or "O": the player to move (a pass changes it too). */
static PyObject *Tree_player(Tree *self, PyObject *unused) {
    return PyUnicode_FromString(board_here(self)->x_to_move ? "X" : "O");
}

/* (mover, opponent, x_to_move) of a node. */
static PyObject *state_tuple(const State *s) {
    return Py_BuildValue("(KKO)", (unsigned long long)s->mover, (unsigned long long)s->opponent,
                         s->x_to_move ? Py_True : Py_False);
}

static PyObject *Tree_get_root(Tree *self, void *unused) { return state_tuple(&self->stack[0]); }
static PyObject *Tree_get_now(Tree *self, void *unused) { return state_tuple(board_here(self)); }

static PyGetSetDef Tree_getset[] = {
    {"root", (getter)Tree_get_root, NULL, "(mover, opponent, x_to_move) of the root", NULL},
    {"now", (getter)Tree_get_now, NULL, "(mover, opponent, x_to_move) at the cursor", NULL},
    BOARD_SELECTIVE_GETSET,
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Tree_methods[] = {
    BOARD_NOARGS(moves, "The squares (ints, 64: pass) in search order; [] at the end of the game."),
    BOARD_ONEARG(push, "Play a square or pass (ValueError: not legal here; TypeError: not an int)."),
    BOARD_NOARGS(leaf_value, "The exact value if the game is over here, else None."),
    BOARD_NOARGS(terminal_value, "The exact value at the end (AssertionError at a node with moves)."),
    BOARD_NOARGS(value, "The exact value at the end of the game, else the heuristic."),
    BOARD_ONEARG(child_value, "value() of the child reached by a move, the cursor left where it is."),
    BOARD_NOARGS(key, "tree.position_key: a 64-bit key of the position."),
    BOARD_ONEARG(move_name, "a1 .. h8, or pass."),
    BOARD_NOARGS(player, "X or O: the player to move."),
    BOARD_TACTICAL_METHOD("Whether a move takes a corner (tree.OthelloTree.tactical)."),
    BOARD_METHODS("cutoff(move, depth): learn from a fail-high (killers, history; a corner "
                  "or a pass teaches nothing); with neither on, nothing."),
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = BOARD_TYPE(
    "harness.games.othello._board.OthelloTree",
    "OthelloTree(board, weights, ranks, mobility, killers=False, history=False)\n\n"
    "The compiled twin of harness.games.othello.tree.OthelloTree, with its tables "
    "(SQUARE_WEIGHTS, MOVE_RANKS, MOBILITY_WEIGHT) and its ordering switches.");

static PyMethodDef module_methods[] = {
    BOARD_SELECTIVE_SETUP,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled Othello tree (harness.games.othello.compiled chooses it).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__board(void) { return board_module(&module, "OthelloTree"); }
