/* Chess positions as a search tree, compiled: the twin of ChessTree in tree.py.
 *
 * The Python tree spends its time in python-chess's bitboards on Python integers, its
 * position-record cache and the calls between them; here a node is a copy of a small
 * struct, and the frame's calls (moves, push, pop, key, value, child_quiesce) are one C
 * call each. Everything mirrors tree.py and the modules under it, so that a search counts
 * the same nodes in the same order:
 * - the legal moves in python-chess's generation order (Board.generate_legal_moves: its
 *   pseudo-legal order, or its check evasions' order in check, filtered by its _is_safe
 *   rules; en passant by playing it), castling as the king's two-square move;
 * - MVV-LVA as movegen.mvv_lva (10 * (victim + promotion) - attacker, ties by from, to,
 *   promotion), killers and history as ChessTree._dynamic_order and ChessTree.cutoff
 *   (board_order.h);
 * - play.py's make (castling rights cleaned at the root, a move only removes rights);
 * - the evaluation of evaluation.py, from its tables (handed over by setup(): data, not
 *   code), carried incrementally;
 * - ChessTree.quiesce (stand pat, captures and promotions in MVV-LVA order, fail-soft), with
 *   quiescence.py's options (SEE and delta pruning, checks at its first ply; board_see.h,
 *   board_quiesce.h);
 * - keys equal to tree.position_key's tuple: a small Key object whose hash is CPython's
 *   hash of that tuple (so the table's slots are the same) and whose equality compares
 *   the same fields.
 * - with draws on (the game option repetition), ChessTree.drawn: a node below the root
 *   that repeats a position of the game (the history's keys, handed over as position_key
 *   tuples) or of the path, or whose half-move clock reached 100, is a draw (board_draws.h).
 * Moves are ints, movegen.move_code (from | to << 6 | promotion << 12); None is the null
 * move. Standard chess only (compiled.py gives chess960 boards the Python tree).
 * tests/test_chess_compiled.py compares the two trees method by method and search by
 * search.
 *
 * The cursor (the stack of positions, pop, reset, moves, value, the native interface, the
 * type and the module) is ../board_cursor.h's. A chess node is more than its position (its
 * moves depend on what cutoff() learnt, its value on the path for draws), so this tree
 * writes the cursor's operations itself (BOARD_OWN_CURSOR) and defines the cursor's
 * optional parts: quiescence, the null move, check, learning, a slot hash beside its key.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "board_position.h"   /* tables, positions, make, evaluation */
#include "board_moves.h"      /* legal moves in python-chess's order, check, MVV-LVA, perft */
#include "board_lists.h"      /* the search's move lists in one pass */
#include "board_key.h"        /* keys hashed as position_key's tuples */
#include "board_see.h"        /* static exchange evaluation, the quiescence options' moves */

typedef Pos State;

/* What a chess tree holds besides its positions: its ordering switches, what cutoff()
 * learns, the path it is on (for draws and the null move) and its draws' bookkeeping. The
 * tree's own cursor operations update it; the shared cursor only reads it. */
typedef struct {
    int mvv_lva, killers_on, history_on;
    PyObject *ordering;              /* the tree.Ordering the switches were read from */
    int qsee, qdelta, qchecks;       /* ordering.quiescence (quiescence.QuiescenceRules) */
    int path[MAX_PLY];               /* the move into each ply (path[ply - 1]), -1: null */
    int killers[MAX_PLY][2];         /* ChessTree._killers: the two latest at each ply */
    int killer_count[MAX_PLY];       /* how many of the two each ply has */
    int killer_plies;                /* len(ChessTree._killers) */
    long long history[64][64];       /* ChessTree._history, by from and to square */
    int overflow;                    /* quiescence ran out of stack (a board no game holds) */
    /* Draws by repetition and the fifty-move rule (ChessTree.draws, board_draws.h): the
     * half-move clock of each node of the path and its key (made on first use: keyed),
     * the keys of the game before the root, and the nodes scored as such draws. */
    int draws;
    long long repetition_draws;
    int clock[MAX_PLY];
    unsigned char keyed[MAX_PLY];
    KeyObject keys[MAX_PLY];
    KeyObject *game_keys;
    Py_ssize_t game_key_count;
} Game;

#define BOARD_PLIES (MAX_PLY - QUIESCENCE_RESERVE - 1)
#define BOARD_RESERVE QUIESCENCE_RESERVE
#define BOARD_NAME "chess tree"
#define BOARD_CACHED_MOVES MOVE_CODES
#define BOARD_OVERFLOW_ERROR PyExc_RecursionError
#define BOARD_OVERFLOW_MESSAGE "the compiled chess tree is full (too many plies)"
#define BOARD_POP_MESSAGE "pop at the root"
#define BOARD_OWN_CURSOR
#define BOARD_RESET forget
#define BOARD_FREE game_free
#define BOARD_CUTOFF learn_cutoff
#define BOARD_SLOT_HASH slot_hash
#define BOARD_KEY_AND_SLOT key_and_slot
#define BOARD_QUIESCE quiesce_native
#define BOARD_CHILD_QUIESCE child_quiesce_native
#define BOARD_IN_CHECK game_in_check
#define BOARD_NULL_MOVE (-1)
#define BOARD_NULL_ALLOWED null_allowed
#define BOARD_TACTICAL game_tactical
#define BOARD_STAGED_MOVES
#include "../board_cursor.h"

static long mate_score;                   /* evaluation.MATE, from setup() */
static PyObject *QNODES;                  /* "qnodes" */
static int ready = 0;                     /* setup() was called */

/* A move argument: an int below MOVE_CODES, or None (-1: the null move). */
static int read_code(PyObject *move, int *code) {
    if (move == Py_None) {
        *code = -1;
        return 1;
    }
    long c = PyLong_AsLong(move);
    if (c == -1 && PyErr_Occurred())
        return 0;
    if (c < 0 || c >= MOVE_CODES) {
        PyErr_Format(PyExc_ValueError, "%ld is not a move code", c);
        return 0;
    }
    *code = (int)c;
    return 1;
}

#include "board_draws.h"      /* draws by repetition and the fifty-move rule */

/* A checked push (the Python methods'): room on the stack, a piece of the side to move on
 * the move's square (a pass needs none). */
static int can_step(Tree *t, int code) {
    if (!board_has_room(t))
        return 0;
    const Pos *p = board_here(t);
    if (code >= 0 && !(p->side[p->turn] & BIT(FROM(code)))) {
        PyErr_Format(PyExc_ValueError, "move code %d: no piece of the side to move on its square", code);
        return 0;
    }
    return 1;
}

static int step_in(Tree *t, int code) {
    if (!can_step(t, code))
        return 0;
    board_push(t, code);
    return 1;
}

#include "board_order.h"      /* move ordering, killers and history, the null move's rule */
#include "board_quiesce.h"    /* the quiescence search */

/* ---- the cursor's operations (BOARD_OWN_CURSOR): on moves moves() gave, unchecked ----- */

static int board_moves(Tree *t, Move *out) {
    if (draw_here(t))
        return 0;
    return ordered_moves(t, out);
}

static void board_push(Tree *t, Move move) {
    int code = (int)move;
    make(board_here(t), &t->stack[t->ply + 1], code);
    t->game.path[t->ply] = code;
    t->ply++;
    if (t->game.draws)
        note_step(t, code);
}

static long board_value(Tree *t) { return counted_draw(t) ? 0 : evaluate(board_here(t)); }

static long board_terminal_value(Tree *t) {
    if (counted_draw(t))
        return 0;
    return in_check(board_here(t)) ? -(mate_score - t->ply) : 0;
}

static long board_child_value(Tree *t, Move move) {
    if (t->game.draws) {                /* whether the child is drawn depends on the path */
        board_push(t, move);
        long value = board_value(t);
        board_pop(t);
        return value;
    }
    return child_evaluation(board_here(t), (int)move);
}

/* The native key is a digest of position_key's fields; its slot, the tuple's hash as
 * CPython's (native_tree.h's slot_hash). */
static uint64_t board_key(Tree *t) { return key_digest(board_here(t)); }
static uint64_t slot_hash(Tree *t) { return key_hash(board_here(t)); }
static uint64_t key_and_slot(Tree *t, uint64_t *slot) { return key_digest_and_hash(board_here(t), slot); }

static uint64_t board_child_key(Tree *t, Move move) {
    Pos child;
    make(board_here(t), &child, (int)move);
    return key_hash(&child);
}

static int game_in_check(const Game *g, const State *p) { return in_check(p); }
static int game_tactical(const Game *g, const State *p, Move move) { return is_forcing(p, (int)move); }

/* ---- construction ---------------------------------------------------------------------- */

static int game_new(PyObject *args, PyObject *kwargs, Game *g, State *root) {
    static char *keywords[] = {"pawns", "knights", "bishops", "rooks", "queens", "kings", "white",
                               "black", "turn", "castling", "ep", "ordering", "draws", "clock",
                               "history", NULL};
    unsigned long long fields[8], castling;
    int turn, ep, draws = 0, clock = 0;
    PyObject *ordering, *history = NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_board.setup() was not called");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KKKKKKKKpKiO|piO", keywords, &fields[0],
                                     &fields[1], &fields[2], &fields[3], &fields[4], &fields[5],
                                     &fields[6], &fields[7], &turn, &castling, &ep, &ordering,
                                     &draws, &clock, &history))
        return -1;
    if (ep < -1 || ep > 63) {
        PyErr_SetString(PyExc_ValueError, "ep must be a square or -1");
        return -1;
    }
    if (clock < 0) {
        PyErr_SetString(PyExc_ValueError, "clock (the half-move clock) must be 0 or more");
        return -1;
    }
    for (int color = 0; color < 2; color++) {
        u64 mine = fields[7 - color];             /* black (7) for 0, white (6) for 1 */
        for (int type_ = PAWN; type_ <= KING; type_++)
            for (u64 b = fields[type_ - 1] & mine; b; b &= b - 1)
                add_piece(root, color, type_, lsb(b));
    }
    root->turn = turn;
    root->castling = castling;
    root->ep = ep;
    if (!read_ordering(g, ordering))
        return -1;
    g->draws = draws;
    g->clock[0] = clock;
    if (draws && history != NULL && !read_game_keys(g, history))
        return -1;
    return 0;
}

static void game_free(Game *g) {
    PyMem_Free(g->game_keys);
    Py_XDECREF(g->ordering);
}

/* ---- the Python methods of this tree alone --------------------------------------------- */

static PyObject *Tree_push(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code) || !step_in(t, code))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tree_child_value(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    if (t->game.draws) {                 /* the child, checked, on the path */
        if (!step_in(t, code))
            return NULL;
        long value = board_value(t);
        board_pop(t);
        return PyLong_FromLong(value);
    }
    return PyLong_FromLong(board_child_value(t, code));
}

/* Checkmate or stalemate (a draw below the root first, with draws on). */
static PyObject *Tree_terminal_value(Tree *t, PyObject *unused) {
    return PyLong_FromLong(board_terminal_value(t));
}

static PyObject *Tree_tactical(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    return PyBool_FromLong(is_forcing(board_here(t), code));
}

static PyObject *Tree_see(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    const Pos *p = board_here(t);
    if (code < 0 || !(p->side[p->turn] & BIT(FROM(code)))) {
        PyErr_Format(PyExc_ValueError, "move code %d: no piece of the side to move on its square", code);
        return NULL;
    }
    return PyLong_FromLong(see(p, code));
}

static PyObject *Tree_key(Tree *t, PyObject *unused) { return make_key(board_here(t)); }

static PyObject *Tree_key_tuple(Tree *t, PyObject *unused) {
    PyObject *key = make_key(board_here(t));
    if (key == NULL)
        return NULL;
    PyObject *fields = Key_fields((KeyObject *)key, NULL);
    Py_DECREF(key);
    return fields;
}

/* Whether a signal handler raised (Ctrl-C's KeyboardInterrupt, the CLI's SIGTERM): a deep
 * perft runs for minutes and must stop when asked, not when done. */
static int signalled(void) { return PyErr_CheckSignals() < 0; }

static PyObject *Tree_perft(Tree *t, PyObject *depth) {
    long d = PyLong_AsLong(depth);
    if (d == -1 && PyErr_Occurred())
        return NULL;
    long long leaves = perft(board_here(t), (int)d, signalled);
    return leaves < 0 ? NULL : PyLong_FromLongLong(leaves);
}

static PyObject *Tree_move_name(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    if (code < 0)
        return PyUnicode_FromString("0000");
    static const char promotions[] = " pnbrqk";
    char name[6];
    int from = FROM(code), to = TO(code), promotion = PROMOTION(code);
    name[0] = 'a' + (from & 7);
    name[1] = '1' + (from >> 3);
    name[2] = 'a' + (to & 7);
    name[3] = '1' + (to >> 3);
    name[4] = promotion ? promotions[promotion] : '\0';
    name[5] = '\0';
    return PyUnicode_FromString(name);
}

static PyObject *Tree_get_ply(Tree *t, void *unused) { return PyLong_FromLong(t->ply); }

static PyObject *Tree_get_draws(Tree *t, void *unused) { return PyBool_FromLong(t->game.draws); }

static PyObject *Tree_get_repetition_draws(Tree *t, void *unused) {
    return PyLong_FromLongLong(t->game.repetition_draws);
}

static PyObject *Tree_get_ordering(Tree *t, void *unused) { return Py_NewRef(t->game.ordering); }

static PyGetSetDef Tree_getset[] = {
    {"ply", (getter)Tree_get_ply, NULL, "Distance from the root.", NULL},
    {"ordering", (getter)Tree_get_ordering, NULL, "Move-ordering switches (tree.Ordering).", NULL},
    {"selective_margins", (getter)Tree_get_selective_margins, NULL,
     "Chess's margins for the selective switches (evaluation.SELECTIVE_MARGINS).", NULL},
    {"draws", (getter)Tree_get_draws, NULL,
     "Whether repetitions and the fifty-move rule below the root are draws.", NULL},
    {"repetition_draws", (getter)Tree_get_repetition_draws, NULL,
     "Nodes scored 0 as draws by repetition or the fifty-move rule since the last reset.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define FAST(name) (PyCFunction)(void (*)(void))(name), METH_FASTCALL
static PyMethodDef Tree_methods[] = {
    BOARD_NOARGS(moves, "The legal moves in search order."),
    BOARD_ONEARG(push, "Step into the child reached by a move (None: pass)."),
    {"pop", (PyCFunction)Tree_pop, METH_NOARGS, "Step back to the parent."},
    BOARD_NOARGS(value, "The static evaluation for the side to move."),
    BOARD_ONEARG(child_value, "value() of a child."),
    {"child_quiesce", FAST(Tree_child_quiesce), "quiesce() at a child, the cursor left here."},
    {"quiesce", FAST(Tree_quiesce), "Fail-soft quiescence search (qnodes into counters)."},
    BOARD_NOARGS(terminal_value, "Checkmate or stalemate."),
    BOARD_NOARGS(key, "The position's Key (tree.position_key's tuple)."),
    BOARD_NOARGS(key_tuple, "key() as tree.position_key's tuple."),
    BOARD_ONEARG(move_name, "A move in UCI."),
    BOARD_NOARGS(reset, "Back to the root; killers and history forgotten."),
    BOARD_NOARGS(native_tree, "The tree's methods as C functions, for the compiled frame (a capsule)."),
    {"cutoff", FAST(Tree_cutoff), "Learn from a fail-high (killers, history; quiet moves only)."},
    BOARD_ONEARG(set_ordering, "Switch move ordering between searches."),
    BOARD_NOARGS(staged_moves, "(first, rest, has_rest): moves() in the compiled frame's two stages."),
    BOARD_IN_CHECK_METHOD("Whether the side to move is in check."),
    BOARD_TACTICAL_METHOD("Whether a move captures, promotes or checks."),
    BOARD_ONEARG(see, "The static exchange evaluation of a move (see.py)."),
    BOARD_NULL_METHODS,
    BOARD_ONEARG(perft, "Leaf nodes of the full-width tree to a depth."),
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = BOARD_TYPE(
    "harness.games.chess._board.ChessTree",
    "ChessTree(pawns, knights, bishops, rooks, queens, kings, white, black, "
    "turn, castling, ep, ordering, draws=False, clock=0, history=())\n\n"
    "The compiled twin of tree.ChessTree "
    "(harness.games.chess.compiled builds it from a board).");

/* ---- the module: evaluation.py's tables ------------------------------------------------ */

static int read_table(PyObject *table, int (*out)[7][64]) {
    /* table[color][piece_type][square], color 0 black, 1 white; piece_type 1-6 */
    for (int color = 0; color < 2; color++) {
        PyObject *by_type = PySequence_GetItem(table, color);
        if (by_type == NULL)
            return 0;
        for (int type_ = PAWN; type_ <= KING; type_++) {
            PyObject *squares = PySequence_GetItem(by_type, type_);
            if (squares == NULL || PySequence_Size(squares) != 64) {
                Py_XDECREF(squares);
                Py_DECREF(by_type);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "expected 64 squares a piece type");
                return 0;
            }
            for (int s = 0; s < 64; s++) {
                PyObject *item = PySequence_GetItem(squares, s);
                long v = item == NULL ? -1 : PyLong_AsLong(item);
                Py_XDECREF(item);
                if (v == -1 && PyErr_Occurred()) {
                    Py_DECREF(squares);
                    Py_DECREF(by_type);
                    return 0;
                }
                out[color][type_][s] = (int)v;
            }
            Py_DECREF(squares);
        }
        Py_DECREF(by_type);
    }
    return 1;
}

static int read_small(PyObject *seq, long *out, int count) {
    if (PySequence_Size(seq) != count) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "expected %d numbers", count);
        return 0;
    }
    for (int i = 0; i < count; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        out[i] = item == NULL ? -1 : PyLong_AsLong(item);
        Py_XDECREF(item);
        if (out[i] == -1 && PyErr_Occurred())
            return 0;
    }
    return 1;
}

PyDoc_STRVAR(setup_doc,
"setup(middle_game, endgame, phase_weights, values, mate, selective_margins)\n\n"
"evaluation.py's tables: middle_game[color][piece_type][square] and endgame[...] (material\n"
"plus piece-square, White +, Black -; color 0 Black, 1 White), the phase weight and the\n"
"MVV-LVA value of piece types 0-6, MATE and SELECTIVE_MARGINS.");

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *mg, *eg, *weights, *values, *margins;
    long mate, weight[7];
    if (!PyArg_ParseTuple(args, "OOOOlO", &mg, &eg, &weights, &values, &mate, &margins))
        return NULL;
    if (!read_table(mg, square_mg) || !read_table(eg, square_eg) || !read_small(weights, weight, 7)
        || !read_small(values, piece_values, 7))
        return NULL;
    for (int i = 0; i < 7; i++)
        phase_weight[i] = (int)weight[i];
    phase_weight[NONE] = 0;      /* no piece, no phase: capture_evaluation reads it untested */
    for (int color = 0; color < 2; color++)
        for (int type_ = 0; type_ < 7; type_++)
            for (int square = 0; square < 64; square++)
                square_pair[color][type_][square] = PAIR(square_mg[color][type_][square]
                                                         - square_eg[color][type_][square],
                                                         square_eg[color][type_][square]);
    mate_score = mate;
    Py_XSETREF(board_selective_margins, Py_NewRef(margins));
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_VARARGS, setup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled chess tree (harness.games.chess.compiled).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__board(void) {
    if (!make_tables()) {
        PyErr_SetString(PyExc_ImportError, "_board: a slider's magic number collides");
        return NULL;
    }
    if (PyType_Ready(&KeyType) < 0)
        return NULL;
    QNODES = PyUnicode_InternFromString("qnodes");
    if (QNODES == NULL)
        return NULL;
    PyObject *m = board_module(&module, "ChessTree");
    if (m == NULL)
        return NULL;
    Py_INCREF(&KeyType);
    if (PyModule_AddObject(m, "Key", (PyObject *)&KeyType) < 0) {
        Py_DECREF(&KeyType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
