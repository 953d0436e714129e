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
 *   promotion), killers and history as ChessTree._dynamic_order and ChessTree.cutoff;
 * - play.py's make (castling rights cleaned at the root, a move only removes rights);
 * - the evaluation of evaluation.py, from its tables (handed over by setup(): data, not
 *   code), carried incrementally;
 * - ChessTree.quiesce (stand pat, captures and promotions in MVV-LVA order, fail-soft), with
 *   quiescence.py's options (SEE and delta pruning, checks at its first ply; board_see.h);
 * - keys equal to tree.position_key's tuple: a small Key object whose hash is CPython's
 *   hash of that tuple (so the table's slots are the same) and whose equality compares
 *   the same fields.
 * - with draws on (the game option repetition), ChessTree.drawn: a node below the root
 *   that repeats a position of the game (the history's keys, handed over as position_key
 *   tuples) or of the path, or whose half-move clock reached 100, is a draw.
 * Moves are ints, movegen.move_code (from | to << 6 | promotion << 12); None is the null
 * move. Standard chess only (compiled.py gives chess960 boards the Python tree).
 * tests/test_chess_compiled.py compares the two trees method by method and search by
 * search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define FIFTY_MOVES 100           /* tree.FIFTY_MOVES: the half-move clock of the fifty-move rule */

#include "board_position.h"   /* tables, positions, make, evaluation */
#include "board_moves.h"      /* legal moves in python-chess's order, MVV-LVA, perft */
#include "board_key.h"        /* keys hashed as position_key's tuples */
#include "board_see.h"        /* static exchange evaluation, the quiescence options' moves */
#include "../native_tree.h"   /* the tree protocol in C, for the compiled frame */

static long mate_score;                   /* evaluation.MATE, from setup() */
static PyObject *move_ints[MOVE_CODES];  /* the ints moves() hands out */
static PyObject *QNODES;                  /* "qnodes" */
static int ready = 0;                     /* setup() was called */
static PyObject *selective_margins;       /* evaluation.SELECTIVE_MARGINS, from setup() */

/* ---- the tree -------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int ply;
    int mvv_lva, killers_on, history_on;
    PyObject *ordering;
    int path[MAX_PLY];               /* the move into each ply (path[ply - 1]), -1: null */
    int killers[MAX_PLY][2];
    int killer_count[MAX_PLY];
    int killer_plies;                /* len(ChessTree._killers) */
    int overflow;                    /* quiescence ran out of stack (a board no game holds) */
    int qsee, qdelta, qchecks;       /* ordering.quiescence (quiescence.QuiescenceRules) */
    long long history[64][64];
    Pos stack[MAX_PLY];
    /* Draws by repetition and the fifty-move rule (ChessTree.draws): the half-move clock of
     * each node of the path (set as it is stepped into, when draws is on) and its key (made
     * when a repetition test first needs it: keyed), the keys of the game before the root,
     * and the count of nodes scored as such draws. */
    int draws;
    long long repetition_draws;
    int clock[MAX_PLY];
    unsigned char keyed[MAX_PLY];
    KeyObject keys[MAX_PLY];
    KeyObject *game_keys;
    Py_ssize_t game_key_count;
} Tree;

static inline Pos *here(Tree *t) { return &t->stack[t->ply]; }

static int read_quiescence(Tree *t, PyObject *ordering);

static int read_ordering(Tree *t, PyObject *ordering) {
    if (!read_quiescence(t, ordering))
        return 0;
    const char *names[3] = {"mvv_lva", "killers", "history"};
    int values[3];
    for (int i = 0; i < 3; i++) {
        PyObject *value = PyObject_GetAttrString(ordering, names[i]);
        if (value == NULL)
            return 0;
        values[i] = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (values[i] < 0)
            return 0;
    }
    t->mvv_lva = values[0];
    t->killers_on = values[1];
    t->history_on = values[2];
    Py_INCREF(ordering);
    Py_XSETREF(t->ordering, ordering);
    return 1;
}

static void clear_dynamic(Tree *t) {
    t->killer_plies = 0;
    memset(t->history, 0, sizeof t->history);
}

/* The keys of the game before the root (position_key tuples, oldest first) into t. */
static int read_game_keys(Tree *t, PyObject *history) {
    PyObject *items = PySequence_Fast(history, "history must be a sequence of position_key tuples");
    if (items == NULL)
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    t->game_keys = PyMem_Calloc(n ? (size_t)n : 1, sizeof(KeyObject));
    if (t->game_keys == NULL) {
        Py_DECREF(items);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        KeyObject *k = &t->game_keys[i];
        unsigned long long bb[8], castling;
        int turn;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(items, i), "KKKKKKKKpKi;a history key is "
                              "position_key's tuple", &bb[0], &bb[1], &bb[2], &bb[3], &bb[4],
                              &bb[5], &bb[6], &bb[7], &turn, &castling, &k->ep)) {
            Py_DECREF(items);
            return 0;
        }
        for (int j = 0; j < 8; j++)
            k->bb[j] = bb[j];
        k->turn = turn;
        k->castling = castling;
    }
    t->game_key_count = n;
    Py_DECREF(items);
    return 1;
}

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"pawns", "knights", "bishops", "rooks", "queens", "kings", "white",
                               "black", "turn", "castling", "ep", "ordering", "draws", "clock",
                               "history", NULL};
    unsigned long long fields[8], castling;
    int turn, ep, draws = 0, clock = 0;
    PyObject *ordering, *history = NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_board.setup() was not called");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KKKKKKKKpKiO|piO", keywords, &fields[0],
                                     &fields[1], &fields[2], &fields[3], &fields[4], &fields[5],
                                     &fields[6], &fields[7], &turn, &castling, &ep, &ordering,
                                     &draws, &clock, &history))
        return NULL;
    if (ep < -1 || ep > 63) {
        PyErr_SetString(PyExc_ValueError, "ep must be a square or -1");
        return NULL;
    }
    if (clock < 0) {
        PyErr_SetString(PyExc_ValueError, "clock (the half-move clock) must be 0 or more");
        return NULL;
    }
    Tree *t = (Tree *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    Pos *p = &t->stack[0];
    memset(p, 0, sizeof *p);
    for (int color = 0; color < 2; color++) {
        u64 mine = fields[7 - color];             /* black (7) for 0, white (6) for 1 */
        for (int type_ = PAWN; type_ <= KING; type_++)
            for (u64 b = fields[type_ - 1] & mine; b; b &= b - 1)
                add_piece(p, color, type_, lsb(b));
    }
    p->turn = turn;
    p->castling = castling;
    p->ep = ep;
    if (!read_ordering(t, ordering)) {
        Py_DECREF(t);
        return NULL;
    }
    t->draws = draws;
    t->clock[0] = clock;
    if (draws && history != NULL && !read_game_keys(t, history)) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

static void Tree_dealloc(Tree *t) {
    PyMem_Free(t->game_keys);
    Py_XDECREF(t->ordering);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

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

/* With draws on: the half-move clock of the node just stepped into by `code` (play.py's
 * clock: 0 after a capture or a pawn move, else one more, a pass included); its key is
 * made when a repetition test needs it (most nodes' clocks rule one out). */
static inline void note_step(Tree *t, int code) {
    const Pos *from = &t->stack[t->ply - 1];
    int zeroing = code >= 0 && (piece_type_at(from, FROM(code)) == PAWN
                                || piece_type_at(from, TO(code)) != NONE);
    t->clock[t->ply] = zeroing ? 0 : t->clock[t->ply - 1] + 1;
    t->keyed[t->ply] = 0;
}

/* The key of the node `ply` plies from the root on the path, made on first use. */
static inline const KeyObject *path_key(Tree *t, int ply) {
    if (!t->keyed[ply]) {
        fill_key(&t->stack[ply], &t->keys[ply]);
        t->keyed[ply] = 1;
    }
    return &t->keys[ply];
}

static inline int same_position(const KeyObject *a, const KeyObject *b) {
    return a->turn == b->turn && a->ep == b->ep && a->castling == b->castling
        && memcmp(a->bb, b->bb, sizeof a->bb) == 0;
}

static int in_check(const Pos *p);

/* ChessTree.drawn, for a node below the root with draws on: the fifty-move rule (not at
 * checkmate), or a position met 4, 6, ... plies back on the path or in the game, no further
 * back than the half-move clock nor past the last null move. */
static int drawn(Tree *t) {
    int ply = t->ply, reach = t->clock[ply];
    if (reach >= FIFTY_MOVES) {
        if (!in_check(here(t)))
            return 1;
        MoveList legal;
        legal_moves(here(t), &legal);
        return legal.count > 0;
    }
    for (int back = 1; back <= reach && back <= ply; back++)
        if (t->path[ply - back] < 0) {            /* the move into ply - back + 1 was a pass */
            reach = back - 1;
            break;
        }
    if (reach < 4)
        return 0;
    const KeyObject *now = path_key(t, ply);
    for (int back = 4; back <= reach; back += 2) {
        int index = ply - back;
        const KeyObject *then;
        if (index >= 0)
            then = path_key(t, index);
        else if (-index <= t->game_key_count)
            then = &t->game_keys[t->game_key_count + index];
        else
            break;
        if (same_position(then, now))
            return 1;
    }
    return 0;
}

/* Whether the node is a draw the tree scores (draws on, below the root, drawn). */
static inline int draw_here(Tree *t) { return t->draws && t->ply > 0 && drawn(t); }

/* draw_here, counted: what the value methods ask before anything else. */
static inline int counted_draw(Tree *t) {
    if (!draw_here(t))
        return 0;
    t->repetition_draws++;
    return 1;
}

static int step_in(Tree *t, int code) {
    if (t->ply + 1 >= MAX_PLY - QUIESCENCE_RESERVE) {
        PyErr_SetString(PyExc_RecursionError, "the compiled chess tree is full (too many plies)");
        return 0;
    }
    Pos *p = here(t);
    if (code >= 0 && !(p->side[p->turn] & BIT(FROM(code)))) {
        PyErr_Format(PyExc_ValueError, "move code %d: no piece of the side to move on its square", code);
        return 0;
    }
    make(p, &t->stack[t->ply + 1], code);
    t->path[t->ply] = code;
    t->ply++;
    if (t->draws)
        note_step(t, code);
    return 1;
}

static PyObject *Tree_push(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code) || !step_in(t, code))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tree_push_null(Tree *t, PyObject *unused) {
    if (!step_in(t, -1))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tree_pop(Tree *t, PyObject *unused) {
    if (t->ply == 0) {
        PyErr_SetString(PyExc_IndexError, "pop at the root");
        return NULL;
    }
    t->ply--;
    Py_RETURN_NONE;
}

static PyObject *code_list(const int *codes, int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *move = move_ints[codes[i]];
        Py_INCREF(move);
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static inline int contains(const int *codes, int count, int code) {
    for (int i = 0; i < count; i++)
        if (codes[i] == code)
            return 1;
    return 0;
}

/* ChessTree.moves into order[]: the static order (MVV-LVA split or generation order),
 * then _dynamic_order with killers or history; the count. */
static int ordered_moves(Tree *t, int *order) {
    Pos *p = here(t);
    MoveList legal;
    legal_moves(p, &legal);
    int tactical = 0, n = legal.count;
    if (t->mvv_lva) {
        int quiet[MAX_MOVES], quiet_count;
        tactical = split_tactical(p, legal.codes, n, order, quiet, &quiet_count);
        memcpy(order + tactical, quiet, quiet_count * sizeof(int));
    } else {
        memcpy(order, legal.codes, n * sizeof(int));
    }
    if ((t->killers_on || t->history_on) && n > 1) {
        int *rest = order + tactical, rest_count = n - tactical;
        if (t->history_on) {                          /* stable, most history first */
            for (int i = 1; i < rest_count; i++) {
                int code = rest[i], j = i;
                long long score = t->history[FROM(code)][TO(code)];
                while (j > 0 && t->history[FROM(rest[j - 1])][TO(rest[j - 1])] < score) {
                    rest[j] = rest[j - 1];
                    j--;
                }
                rest[j] = code;
            }
        }
        if (t->killers_on && t->ply < t->killer_plies) {
            int found[2], count = 0;
            for (int k = 0; k < t->killer_count[t->ply]; k++)
                if (contains(rest, rest_count, t->killers[t->ply][k]))
                    found[count++] = t->killers[t->ply][k];
            if (count) {
                int reordered[MAX_MOVES], m = 0;
                for (int k = 0; k < count; k++)
                    reordered[m++] = found[k];
                for (int i = 0; i < rest_count; i++)
                    if (!contains(found, count, rest[i]))
                        reordered[m++] = rest[i];
                memcpy(rest, reordered, rest_count * sizeof(int));
            }
        }
    }
    return n;
}

static PyObject *Tree_moves(Tree *t, PyObject *unused) {
    int order[MAX_MOVES];
    int n = draw_here(t) ? 0 : ordered_moves(t, order);
    return code_list(order, n);
}

static PyObject *Tree_value(Tree *t, PyObject *unused) {
    return PyLong_FromLong(counted_draw(t) ? 0 : evaluate(here(t)));
}

static PyObject *Tree_child_value(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    if (t->draws) {                      /* whether the child is drawn depends on the path */
        if (!step_in(t, code))
            return NULL;
        long value = counted_draw(t) ? 0 : evaluate(here(t));
        t->ply--;
        return PyLong_FromLong(value);
    }
    Pos n;
    make(here(t), &n, code);
    return PyLong_FromLong(evaluate(&n));
}

static int in_check(const Pos *p) {
    int king = king_square(p, p->turn);
    return king >= 0 && attackers(p, !p->turn, king, occupancy(p)) != 0;
}

static PyObject *Tree_in_check(Tree *t, PyObject *unused) {
    return PyBool_FromLong(in_check(here(t)));
}

/* ChessTree.tactical: a capture or a promotion (what killers and history never learn), or a
 * move that gives check: what the selective switches never prune or reduce. */
static int is_forcing(const Pos *p, int code) {
    if (is_tactical(p, code))
        return 1;
    Pos n;
    make(p, &n, code);
    return in_check(&n);
}

static PyObject *Tree_tactical(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    return PyBool_FromLong(is_forcing(here(t), code));
}

static PyObject *Tree_see(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    if (code < 0 || !(here(t)->side[here(t)->turn] & BIT(FROM(code)))) {
        PyErr_Format(PyExc_ValueError, "move code %d: no piece of the side to move on its square", code);
        return NULL;
    }
    return PyLong_FromLong(see(here(t), code));
}

static PyObject *Tree_terminal_value(Tree *t, PyObject *unused) {
    if (counted_draw(t))
        return PyLong_FromLong(0);
    return PyLong_FromLong(in_check(here(t)) ? -(mate_score - t->ply) : 0);
}

static PyObject *Tree_key(Tree *t, PyObject *unused) {
    return make_key(here(t));
}

static PyObject *Tree_key_tuple(Tree *t, PyObject *unused) {
    PyObject *key = make_key(here(t));
    if (key == NULL)
        return NULL;
    PyObject *fields = Key_fields((KeyObject *)key, NULL);
    Py_DECREF(key);
    return fields;
}

static PyObject *Tree_reset(Tree *t, PyObject *unused) {
    t->ply = 0;
    t->repetition_draws = 0;
    clear_dynamic(t);
    Py_RETURN_NONE;
}

static void learn_cutoff(Tree *t, int code, long depth);

/* ChessTree.cutoff: killers and history learn from quiet moves only. */
static PyObject *Tree_cutoff(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "cutoff(move, depth)");
        return NULL;
    }
    if (!t->killers_on && !t->history_on)
        Py_RETURN_NONE;
    int code;
    if (!read_code(args[0], &code))
        return NULL;
    long depth = PyLong_AsLong(args[1]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    learn_cutoff(t, code, depth);
    Py_RETURN_NONE;
}

/* ChessTree.cutoff's learning, for a move code (-1: the null move) at `depth`. */
static void learn_cutoff(Tree *t, int code, long depth) {
    if ((!t->killers_on && !t->history_on) || code < 0 || is_tactical(here(t), code))
        return;
    if (t->killers_on) {
        int ply = t->ply;
        while (t->killer_plies <= ply)
            t->killer_count[t->killer_plies++] = 0;
        int *slot = t->killers[ply];
        if (!contains(slot, t->killer_count[ply], code)) {
            slot[1] = slot[0];
            slot[0] = code;
            if (t->killer_count[ply] < 2)
                t->killer_count[ply]++;
        }
    }
    if (t->history_on)
        t->history[FROM(code)][TO(code)] += (long long)depth * depth;
}

static PyObject *Tree_set_ordering(Tree *t, PyObject *ordering) {
    int was = t->mvv_lva;
    if (!read_ordering(t, ordering))
        return NULL;
    if (t->mvv_lva != was) {                 /* as ChessTree: the MVV-LVA switch resets */
        t->ply = 0;
        clear_dynamic(t);
    }
    Py_RETURN_NONE;
}

/* ChessTree.null_allowed: never in check; `either`: neither of the last two plies was a
 * null move; otherwise (`both`): not both of them. */
static int null_allowed(Tree *t, int either) {
    if (in_check(here(t)))
        return 0;
    int last = t->ply >= 1 && t->path[t->ply - 1] < 0;
    int before = t->ply >= 2 && t->path[t->ply - 2] < 0;
    return either ? !(last || before) : !(t->ply >= 2 && last && before);
}

static PyObject *Tree_null_allowed(Tree *t, PyObject *rule) {
    int either = PyUnicode_Check(rule) && PyUnicode_CompareWithASCIIString(rule, "either") == 0;
    return PyBool_FromLong(null_allowed(t, either));
}

/* ordering.quiescence's options (quiescence.QuiescenceRules: see, delta, checks). */
static int read_quiescence(Tree *t, PyObject *ordering) {
    PyObject *rules = PyObject_GetAttrString(ordering, "quiescence");
    if (rules == NULL)
        return 0;
    const char *names[3] = {"see", "delta", "checks"};
    int values[3];
    for (int i = 0; i < 3; i++) {
        PyObject *value = PyObject_GetAttrString(rules, names[i]);
        values[i] = value == NULL ? -1 : PyObject_IsTrue(value);
        Py_XDECREF(value);
        if (values[i] < 0) {
            Py_DECREF(rules);
            return 0;
        }
    }
    Py_DECREF(rules);
    t->qsee = values[0];
    t->qdelta = values[1];
    t->qchecks = values[2];
    return 1;
}

/* quiescence.py's kinds of quiescence node: plain (stand pat, captures); with checks on,
 * the horizon leaf (stand pat, captures, quiet checks) and a node in check just below it
 * (every evasion, no stand pat); BELOW_HORIZON: a child of the horizon leaf, one of the
 * two as it is in check or not. */
enum { Q_PLAIN, Q_HORIZON, Q_EVASION, Q_BELOW_HORIZON };
#define DELTA_MARGIN 200            /* quiescence.DELTA_MARGIN */
#define DELTA_ENDGAME_PHASE 6       /* quiescence.DELTA_ENDGAME_PHASE: no delta pruning at or below */

static long quiesce_node(Tree *t, long alpha, long beta, long long *qnodes, int kind);

/* ChessTree.quiesce, with its qnodes counted in *qnodes: from the horizon leaf. */
static long quiesce(Tree *t, long alpha, long beta, long long *qnodes) {
    return quiesce_node(t, alpha, beta, qnodes, t->qchecks ? Q_HORIZON : Q_PLAIN);
}

/* ChessTree._quiesce and _ruled: a quiescence node of `kind`. */
static long quiesce_node(Tree *t, long alpha, long beta, long long *qnodes, int kind) {
    Pos *p = here(t);
    long stand_pat = evaluate(p), best = stand_pat;
    if (kind == Q_EVASION)
        best = -(mate_score - t->ply);          /* no stand pat: mated if nothing helps */
    else if (best >= beta)
        return best;
    if (t->ply + 1 >= MAX_PLY) {     /* captures and promotions are finite: never on a real board */
        t->overflow = 1;
        return best;
    }
    int moves[MAX_MOVES];
    int n = quiescence_moves(p, moves), captures = n;
    if (kind == Q_EVASION)
        n += quiet_moves(p, moves + n);
    else if (best > alpha)
        alpha = best;
    if (kind == Q_HORIZON)
        n += quiet_checking_moves(p, t->qsee, moves + n);
    int prune = kind != Q_EVASION && (t->qsee || t->qdelta);
    int delta = t->qdelta && p->phase > DELTA_ENDGAME_PHASE;
    int below = kind == Q_HORIZON ? Q_BELOW_HORIZON : Q_PLAIN;
    for (int i = 0; i < n; i++) {
        int code = moves[i];
        if (prune && i < captures && !PROMOTION(code)) {
            if (t->qsee && see(p, code) < 0)
                continue;                        /* a losing capture: no node, no bound */
            if (delta) {
                long optimistic = stand_pat + victim_value(p, code) + DELTA_MARGIN;
                if (optimistic <= alpha) {       /* cannot raise alpha: its bound, no node */
                    if (optimistic > best)
                        best = optimistic;
                    continue;
                }
            }
        }
        (*qnodes)++;
        make(p, &t->stack[t->ply + 1], code);
        t->path[t->ply] = code;
        t->ply++;
        long v;
        if (t->draws)          /* a quiet check or evasion may repeat (a capture never does) */
            note_step(t, code);
        if (t->draws && counted_draw(t)) {
            v = 0;
        } else {
            int child = below;
            if (child == Q_BELOW_HORIZON)
                child = in_check(here(t)) ? Q_EVASION : Q_PLAIN;
            v = -quiesce_node(t, -beta, -alpha, qnodes, child);
        }
        t->ply--;
        if (v > best) {
            best = v;
            if (v >= beta)
                return v;
            if (v > alpha)
                alpha = v;
        }
    }
    return best;
}

static int add_qnodes(Tree *t, PyObject *counters, long long qnodes) {
    if (t->overflow) {
        t->overflow = 0;
        PyErr_SetString(PyExc_RecursionError, "the compiled chess tree's quiescence ran out of plies");
        return 0;
    }
    if (qnodes == 0)
        return 1;
    PyObject *old = PyObject_GetAttr(counters, QNODES);
    if (old == NULL)
        return 0;
    long long value = PyLong_AsLongLong(old);
    Py_DECREF(old);
    if (value == -1 && PyErr_Occurred())
        return 0;
    PyObject *new = PyLong_FromLongLong(value + qnodes);
    if (new == NULL)
        return 0;
    int failed = PyObject_SetAttr(counters, QNODES, new);
    Py_DECREF(new);
    return failed == 0;
}

static int read_window(PyObject *const *args, long *alpha, long *beta) {
    *alpha = PyLong_AsLong(args[0]);
    if (*alpha == -1 && PyErr_Occurred())
        return 0;
    *beta = PyLong_AsLong(args[1]);
    return !(*beta == -1 && PyErr_Occurred());
}

static PyObject *Tree_quiesce(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    long alpha, beta;
    long long qnodes = 0;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "quiesce(alpha, beta, counters)");
        return NULL;
    }
    if (!read_window(args, &alpha, &beta))
        return NULL;
    long value = counted_draw(t) ? 0 : quiesce(t, alpha, beta, &qnodes);
    if (!add_qnodes(t, args[2], qnodes))
        return NULL;
    return PyLong_FromLong(value);
}

static PyObject *Tree_child_quiesce(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    long alpha, beta;
    long long qnodes = 0;
    int code;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "child_quiesce(move, alpha, beta, counters)");
        return NULL;
    }
    if (!read_code(args[0], &code) || !read_window(args + 1, &alpha, &beta) || !step_in(t, code))
        return NULL;
    long value = counted_draw(t) ? 0 : quiesce(t, alpha, beta, &qnodes);
    t->ply--;
    if (!add_qnodes(t, args[3], qnodes))
        return NULL;
    return PyLong_FromLong(value);
}

/* ---- the native interface (harness/games/native_tree.h): the same methods as C calls,
 * for the compiled frame, on moves moves() gave (nothing checked again). A key is a
 * digest of position_key's fields; its slot, the tuple's hash as CPython's. --------- */

#define TREE(object) ((Tree *)(object))

static int native_moves(PyObject *t, Move *out) {
    int order[MAX_MOVES];
    if (draw_here(TREE(t)))
        return 0;
    int n = ordered_moves(TREE(t), order);
    for (int i = 0; i < n; i++)
        out[i] = order[i];
    return n;
}

static void native_step(Tree *t, int code) {     /* step_in without its checks */
    make(here(t), &t->stack[t->ply + 1], code);
    t->path[t->ply] = code;
    t->ply++;
    if (t->draws)
        note_step(t, code);
}

static void native_push(PyObject *t, Move move) { native_step(TREE(t), (int)move); }
static void native_push_null(PyObject *t) { native_step(TREE(t), -1); }
static void native_pop(PyObject *t) { TREE(t)->ply--; }
static uint64_t native_key(PyObject *t) { return key_digest(here(TREE(t))); }
static uint64_t native_slot_hash(PyObject *t) { return key_hash(here(TREE(t))); }
static long native_value(PyObject *t) {
    return counted_draw(TREE(t)) ? 0 : evaluate(here(TREE(t)));
}

static long native_terminal_value(PyObject *t) {
    if (counted_draw(TREE(t)))
        return 0;
    return in_check(here(TREE(t))) ? -(mate_score - TREE(t)->ply) : 0;
}

static long native_child_value(PyObject *t, Move move) {
    if (TREE(t)->draws) {                /* whether the child is drawn depends on the path */
        native_step(TREE(t), (int)move);
        long value = native_value(t);
        TREE(t)->ply--;
        return value;
    }
    Pos child;
    make(here(TREE(t)), &child, (int)move);
    return evaluate(&child);
}

static uint64_t native_child_key(PyObject *t, Move move) {
    Pos child;
    make(here(TREE(t)), &child, (int)move);
    return key_hash(&child);
}

static void native_cutoff(PyObject *t, Move move, int depth) {
    learn_cutoff(TREE(t), (int)move, depth);
}

/* quiesce for the frame, which cannot take an error: the quiescence stack's end is never
 * reached on a board a game holds (the Python method raises there). */
static long native_quiesce(PyObject *t, long alpha, long beta, long long *qnodes) {
    if (counted_draw(TREE(t)))
        return 0;
    long value = quiesce(TREE(t), alpha, beta, qnodes);
    TREE(t)->overflow = 0;
    return value;
}

static long native_child_quiesce(PyObject *t, Move move, long alpha, long beta,
                                 long long *qnodes) {
    native_step(TREE(t), (int)move);
    long value = native_quiesce(t, alpha, beta, qnodes);
    TREE(t)->ply--;
    return value;
}

static int native_in_check(PyObject *t) { return in_check(here(TREE(t))); }
static int native_tactical(PyObject *t, Move move) { return is_forcing(here(TREE(t)), (int)move); }
static int native_null_allowed(PyObject *t, int either) { return null_allowed(TREE(t), either); }

static const NativeTree NATIVE = {
    .version = NATIVE_TREE_VERSION,
    .moves = native_moves,
    .push = native_push,
    .pop = native_pop,
    .key = native_key,
    .value = native_value,
    .terminal_value = native_terminal_value,
    .child_value = native_child_value,
    .value_bound = NULL,
    .value_floor = NULL,
    .cutoff = native_cutoff,                 /* killers and history */
    .child_key = native_child_key,
    .slot_hash = native_slot_hash,
    .quiesce = native_quiesce,
    .child_quiesce = native_child_quiesce,
    .in_check = native_in_check,
    .push_null = native_push_null,
    .null_allowed = native_null_allowed,
    .tactical = native_tactical,
};

static PyTypeObject TreeType;

static PyObject *Tree_native_tree(Tree *self, PyObject *unused) {
    return native_tree_capsule((PyObject *)self, &TreeType, &NATIVE);
}

/* Whether a signal handler raised (Ctrl-C's KeyboardInterrupt, the CLI's SIGTERM): a deep
 * perft runs for minutes and must stop when asked, not when done. */
static int signalled(void) { return PyErr_CheckSignals() < 0; }

static PyObject *Tree_perft(Tree *t, PyObject *depth) {
    long d = PyLong_AsLong(depth);
    if (d == -1 && PyErr_Occurred())
        return NULL;
    long long leaves = perft(here(t), (int)d, signalled);
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

static PyObject *Tree_get_selective_margins(Tree *t, void *unused) {
    return Py_NewRef(selective_margins != NULL ? selective_margins : Py_None);
}

static PyObject *Tree_get_draws(Tree *t, void *unused) { return PyBool_FromLong(t->draws); }

static PyObject *Tree_get_repetition_draws(Tree *t, void *unused) {
    return PyLong_FromLongLong(t->repetition_draws);
}

static PyObject *Tree_get_ordering(Tree *t, void *unused) {
    Py_INCREF(t->ordering);
    return t->ordering;
}

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
    {"moves", (PyCFunction)Tree_moves, METH_NOARGS, "The legal moves in search order."},
    {"push", (PyCFunction)Tree_push, METH_O, "Step into the child reached by a move (None: pass)."},
    {"pop", (PyCFunction)Tree_pop, METH_NOARGS, "Step back to the parent."},
    {"value", (PyCFunction)Tree_value, METH_NOARGS, "The static evaluation for the side to move."},
    {"child_value", (PyCFunction)Tree_child_value, METH_O, "value() of a child."},
    {"child_quiesce", FAST(Tree_child_quiesce), "quiesce() at a child, the cursor left here."},
    {"quiesce", FAST(Tree_quiesce), "Fail-soft quiescence search (qnodes into counters)."},
    {"terminal_value", (PyCFunction)Tree_terminal_value, METH_NOARGS, "Checkmate or stalemate."},
    {"key", (PyCFunction)Tree_key, METH_NOARGS, "The position's Key (tree.position_key's tuple)."},
    {"key_tuple", (PyCFunction)Tree_key_tuple, METH_NOARGS, "key() as tree.position_key's tuple."},
    {"move_name", (PyCFunction)Tree_move_name, METH_O, "A move in UCI."},
    {"reset", (PyCFunction)Tree_reset, METH_NOARGS, "Back to the root; killers and history forgotten."},
    {"native_tree", (PyCFunction)Tree_native_tree, METH_NOARGS,
     "The tree's methods as C functions, for the compiled frame (a capsule)."},
    {"cutoff", FAST(Tree_cutoff), "Learn from a fail-high (killers, history; quiet moves only)."},
    {"set_ordering", (PyCFunction)Tree_set_ordering, METH_O, "Switch move ordering between searches."},
    {"in_check", (PyCFunction)Tree_in_check, METH_NOARGS, "Whether the side to move is in check."},
    {"tactical", (PyCFunction)Tree_tactical, METH_O, "Whether a move captures, promotes or checks."},
    {"see", (PyCFunction)Tree_see, METH_O, "The static exchange evaluation of a move (see.py)."},
    {"null_allowed", (PyCFunction)Tree_null_allowed, METH_O, "Whether a null move may be tried here."},
    {"push_null", (PyCFunction)Tree_push_null, METH_NOARGS, "Pass the move."},
    {"perft", (PyCFunction)Tree_perft, METH_O, "Leaf nodes of the full-width tree to a depth."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.chess._board.ChessTree",
    .tp_doc = PyDoc_STR("ChessTree(pawns, knights, bishops, rooks, queens, kings, white, black, "
                        "turn, castling, ep, ordering, draws=False, clock=0, history=())\n\n"
                        "The compiled twin of tree.ChessTree "
                        "(harness.games.chess.compiled builds it from a board)."),
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Tree_new,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
    .tp_getset = Tree_getset,
};

/* ---- the module ------------------------------------------------------------------------ */

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
    mate_score = mate;
    Py_XSETREF(selective_margins, Py_NewRef(margins));
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, setup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled chess tree (harness.games.chess.compiled).", -1, methods,
};

PyMODINIT_FUNC PyInit__board(void) {
    make_tables();
    if (PyType_Ready(&KeyType) < 0 || PyType_Ready(&TreeType) < 0)
        return NULL;
    QNODES = PyUnicode_InternFromString("qnodes");
    if (QNODES == NULL)
        return NULL;
    for (int code = 0; code < MOVE_CODES; code++)
        if ((move_ints[code] = PyLong_FromLong(code)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&KeyType);
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Key", (PyObject *)&KeyType) < 0
        || PyModule_AddObject(m, "ChessTree", (PyObject *)&TreeType) < 0)
        return NULL;
    return m;
}
