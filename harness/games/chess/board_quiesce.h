/* The quiescence search of the compiled chess tree (_board.c, the only file that includes
 * this, after ../board_cursor.h, board_draws.h and board_see.h): ChessTree.quiesce (stand
 * pat, captures and promotions in MVV-LVA order, fail-soft) with quiescence.py's options
 * (SEE and delta pruning, checks at its first ply), on the cursor's stack past the plies
 * push may reach (BOARD_RESERVE); the Python methods quiesce and child_quiesce, and the
 * native quiesce (BOARD_QUIESCE). */
#ifndef HARNESS_CHESS_BOARD_QUIESCE_H
#define HARNESS_CHESS_BOARD_QUIESCE_H

/* quiescence.py's kinds of quiescence node: plain (stand pat, captures); with checks on,
 * the horizon leaf (stand pat, captures, quiet checks) and a node in check just below it
 * (every evasion, no stand pat); BELOW_HORIZON: a child of the horizon leaf, one of the
 * two as it is in check or not. */
enum { Q_PLAIN, Q_HORIZON, Q_EVASION, Q_BELOW_HORIZON };
#define DELTA_MARGIN 200            /* quiescence.DELTA_MARGIN */
#define DELTA_ENDGAME_PHASE 6       /* quiescence.DELTA_ENDGAME_PHASE: no delta pruning at or below */

/* A move's value `v` taken into the node's fail-soft best and alpha: 1 when it reaches
 * beta (the node is cut). */
static inline int fails_high(long v, long *best, long *alpha, long beta) {
    if (v <= *best)
        return 0;
    *best = v;
    if (v >= beta)
        return 1;
    if (v > *alpha)
        *alpha = v;
    return 0;
}

/* quiesce_node of a plain node in a tree without draws, SEE or delta pruning (the
 * options are the tree's: its children are the same case), the common case written
 * alone: every move a capture or a promotion, every child's stand pat known before its
 * move is made, and a loop short enough to keep its values in registers. */
static long quiesce_plain(Tree *t, long alpha, long beta, long long *qnodes, long stand_pat) {
    if (stand_pat >= beta)
        return stand_pat;
    if (t->ply + 1 >= MAX_PLY) {
        t->game.overflow = 1;
        return stand_pat;
    }
    const Pos *p = board_here(t);
    int moves[MAX_MOVES];
    int n = quiescence_moves(p, moves);
    long best = stand_pat;
    if (best > alpha)
        alpha = best;
    for (int i = 0; i < n; i++) {
        int code = moves[i];
        Material child = capture_material(p, code);
        long v, child_stand_pat = tapered(child.pair, child.phase, !p->turn);
        (*qnodes)++;
        if (child_stand_pat >= -alpha) {
            v = -child_stand_pat;
        } else {
            make_capture(p, &t->stack[t->ply + 1], code, child);    /* board_push without draws */
            t->game.path[t->ply++] = code;
            v = -quiesce_plain(t, -beta, -alpha, qnodes, child_stand_pat);
            board_pop(t);
        }
        if (fails_high(v, &best, &alpha, beta))
            return v;
    }
    return best;
}

/* ChessTree._quiesce and _ruled: a quiescence node of `kind`, its qnodes counted in *qnodes;
 * `stand_pat` is evaluate() of the node (its parent has often computed it already). */
static long quiesce_node(Tree *t, long alpha, long beta, long long *qnodes, int kind, long stand_pat) {
    const Pos *p = board_here(t);
    const Game *g = &t->game;
    if (kind == Q_PLAIN && !g->draws && !g->qsee && !g->qdelta)
        return quiesce_plain(t, alpha, beta, qnodes, stand_pat);
    long best = stand_pat;
    if (kind == Q_EVASION)
        best = -(mate_score - t->ply);          /* no stand pat: mated if nothing helps */
    else if (best >= beta)
        return best;
    if (t->ply + 1 >= MAX_PLY) {     /* captures and promotions are finite: never on a real board */
        t->game.overflow = 1;
        return best;
    }
    int moves[MAX_MOVES];
    int n = quiescence_moves(p, moves), captures = n;
    if (kind == Q_EVASION)
        n += quiet_moves(p, moves + n);
    else if (best > alpha)
        alpha = best;
    if (kind == Q_HORIZON)
        n += quiet_checking_moves(p, g->qsee, moves + n);
    int prune = kind != Q_EVASION && (g->qsee || g->qdelta);
    int delta = g->qdelta && p->phase > DELTA_ENDGAME_PHASE;
    int below = kind == Q_HORIZON ? Q_BELOW_HORIZON : Q_PLAIN;
    for (int i = 0; i < n; i++) {
        int code = moves[i];
        if (prune && i < captures && !PROMOTION(code)) {
            if (g->qsee && see(p, code) < 0)
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
        /* A plain child whose stand pat cuts is answered without its move (as child_quiesce
         * does; not with draws, whose test needs the child on the path). */
        long v, child_stand_pat = 0;
        int known = below == Q_PLAIN && !g->draws;
        if (known && (child_stand_pat = i < captures ? capture_evaluation(p, code)
                                                     : child_evaluation(p, code)) >= -alpha) {
            v = -child_stand_pat;
        } else {
            /* a quiet check or evasion may repeat (a capture never does): the draw test */
            board_push(t, code);
            if (g->draws && counted_draw(t)) {
                v = 0;
            } else {
                int child = below;
                if (child == Q_BELOW_HORIZON)
                    child = in_check(board_here(t)) ? Q_EVASION : Q_PLAIN;
                if (!known)
                    child_stand_pat = evaluate(board_here(t));
                v = -quiesce_node(t, -beta, -alpha, qnodes, child, child_stand_pat);
            }
            board_pop(t);
        }
        if (fails_high(v, &best, &alpha, beta))
            return v;
    }
    return best;
}

/* ChessTree.quiesce, with its qnodes counted in *qnodes: from the horizon leaf, whose
 * evaluation is `stand_pat`. */
static long quiesce_from(Tree *t, long alpha, long beta, long long *qnodes, long stand_pat) {
    return quiesce_node(t, alpha, beta, qnodes, t->game.qchecks ? Q_HORIZON : Q_PLAIN, stand_pat);
}

static long quiesce(Tree *t, long alpha, long beta, long long *qnodes) {
    return quiesce_from(t, alpha, beta, qnodes, evaluate(board_here(t)));
}

/* quiesce for the frame (BOARD_QUIESCE), which cannot take an error: the quiescence stack's
 * end is never reached on a board a game holds (the Python method raises there). */
static long quiesce_native(Tree *t, long alpha, long beta, long long *qnodes) {
    if (counted_draw(t))
        return 0;
    long value = quiesce(t, alpha, beta, qnodes);
    t->game.overflow = 0;
    return value;
}

/* quiesce at the child of `code`, the cursor left here, a draw first (as quiesce_native,
 * the overflow flag left for the Python methods): a stand pat at or above beta answers
 * before the move is played (without draws, which need the path). */
static long child_quiesce(Tree *t, int code, long alpha, long beta, long long *qnodes) {
    long stand_pat = 0;
    if (!t->game.draws) {
        stand_pat = child_evaluation(board_here(t), code);
        if (stand_pat >= beta)
            return stand_pat;
    }
    board_push(t, code);
    long value;
    if (counted_draw(t))
        value = 0;
    else
        value = quiesce_from(t, alpha, beta, qnodes, t->game.draws ? evaluate(board_here(t)) : stand_pat);
    board_pop(t);
    return value;
}

/* child_quiesce for the frame (BOARD_CHILD_QUIESCE). */
static long child_quiesce_native(Tree *t, Move move, long alpha, long beta, long long *qnodes) {
    long value = child_quiesce(t, (int)move, alpha, beta, qnodes);
    t->game.overflow = 0;
    return value;
}

static int add_qnodes(Tree *t, PyObject *counters, long long qnodes) {
    if (t->game.overflow) {
        t->game.overflow = 0;
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
    if (!read_code(args[0], &code) || !read_window(args + 1, &alpha, &beta) || !can_step(t, code))
        return NULL;
    long value = child_quiesce(t, code, alpha, beta, &qnodes);
    if (!add_qnodes(t, args[3], qnodes))
        return NULL;
    return PyLong_FromLong(value);
}

#endif
