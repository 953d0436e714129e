/* The loops of the compiled engine (_engine.c, the only file that includes this): each the
 * twin of its Python loop, line for line, with the Python's names (alphabeta.py, pvs.py,
 * negascout.py, zwp.py). A loop is given the node's children in search order (Children:
 * has_child asks the tree for the rest when the known ones run out), its depth
 * and window, and sets the value to return, the index of the last child it searched and
 * the move that produced the value (NO_MOVE for None), as a Python Loop returns them.
 * After every child searched it checks e->failed (the Python frame's exception): the
 * loop then returns at once, its results unused. The parameters of a loop (pvs's soft
 * frame, zwp's ideas) are the engine's (e->loop): one variant's loops share them. */
#ifndef HARNESS_SEARCH_ENGINE_LOOPS_H
#define HARNESS_SEARCH_ENGINE_LOOPS_H

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define SEARCHED() do { if (e->failed) return; } while (0)   /* the child failed: unwind */

/* alphabeta.py: minimax (prune 0), alphabeta (fail-hard) and alphabeta-fs (soft). */
static void loop_alphabeta(Engine *e, int loop, Children *ch, int depth,
                           long alpha, long beta, long *value, int *last, Move *best_move) {
    int soft = loop == LOOP_ALPHABETA_FS, prune = loop != LOOP_MINIMAX;
    long best = -INF;
    *best_move = NO_MOVE;
    for (int i = 0; has_child(e, ch, i); i++) {
        long v = -child(e, loop, ch->moves[i], depth - 1, -beta, -alpha);
        SEARCHED();
        if (v > best) {
            best = v;
            *best_move = ch->moves[i];
        }
        if (!prune)
            continue;
        if (v >= beta) {
            *value = soft ? v : beta;
            *last = i;
            *best_move = ch->moves[i];
            return;
        }
        if (v > alpha)
            alpha = v;
    }
    *value = prune && !soft ? alpha : best;
    *last = ch->n - 1;
}

/* pvs.pvs: the first child (Moreland: until a child raised alpha) with the full window,
 * each later one a zero-window test around alpha, searched again when it fails high
 * inside the window. */
static void loop_pvs(Engine *e, Children *ch, int depth, long alpha, long beta,
                     long *value, int *last, Move *best_move) {
    const LoopParameters *p = &e->loop;
    int wide = beta > alpha + 1;             /* called with more than a zero window */
    long best = -INF;
    int found_pv = 0;
    *best_move = NO_MOVE;
    for (int i = 0; has_child(e, ch, i); i++) {
        Move m = ch->moves[i];
        long v;
        if (!found_pv || depth < p->zw_min_depth) {
            v = -child(e, LOOP_PVS, m, depth - 1, -beta, -alpha);
        } else {
            v = -test(e, LOOP_PVS, m, depth - 1, -alpha - 1, -alpha, wide);
            SEARCHED();
            if (alpha < v && v < beta && depth >= p->research_min_depth)
                v = -research(e, LOOP_PVS, m, depth - 1, -beta, -alpha);
        }
        SEARCHED();
        if (v > best) {
            best = v;
            *best_move = m;
        }
        if (v >= beta) {
            *value = p->soft ? v : beta;
            *last = i;
            *best_move = m;
            return;
        }
        if (v > alpha) {
            alpha = v;
            found_pv = 1;
        } else if (!p->moreland) {
            found_pv = 1;
        }
    }
    *value = p->soft ? best : alpha;
    *last = ch->n - 1;
}

/* pvs.pvs_marsland: fail-soft; tests around max(alpha, best), a failed-high test searched
 * again with (merit, beta). */
static void loop_pvs_marsland(Engine *e, Children *ch, int depth, long alpha,
                              long beta, long *value, int *last, Move *best_move) {
    int wide = beta > alpha + 1;
    long best = -child(e, LOOP_PVS_MARSLAND, ch->moves[0], depth - 1, -beta, -alpha);
    SEARCHED();
    Move best_at = ch->moves[0];
    for (int i = 1;; i++) {
        if (best >= beta) {                  /* (before the rest is asked for) */
            *value = best;
            *last = i - 1;
            *best_move = best_at;
            return;
        }
        if (!has_child(e, ch, i))
            break;
        alpha = MAX(alpha, best);
        Move m = ch->moves[i];
        long merit = -test(e, LOOP_PVS_MARSLAND, m, depth - 1, -alpha - 1, -alpha, wide);
        SEARCHED();
        if (merit > best) {
            if (merit <= alpha || merit >= beta) {
                best = merit;
            } else {
                best = -research(e, LOOP_PVS_MARSLAND, m, depth - 1, -beta, -merit);
                SEARCHED();
            }
            best_at = m;
        }
    }
    *value = best;
    *last = ch->n - 1;
    *best_move = best_at;
}

/* negascout.negascout: the window (alpha, alpha + 1) after the first child, a failed-high
 * test searched again with (t, beta), the larger value kept. */
static void loop_negascout(Engine *e, Children *ch, int depth, long alpha,
                           long beta, long *value, int *last, Move *best_move) {
    int wide = beta > alpha + 1;
    long b = beta;
    *best_move = NO_MOVE;
    for (int i = 0; has_child(e, ch, i); i++) {
        Move m = ch->moves[i];
        long t = i == 0 ? -child(e, LOOP_NEGASCOUT, m, depth - 1, -b, -alpha)
                        : -test(e, LOOP_NEGASCOUT, m, depth - 1, -b, -alpha, wide);
        SEARCHED();
        if (alpha < t && t < beta && i > 0 && depth >= e->loop.research_min_depth) {
            long again = -research(e, LOOP_NEGASCOUT, m, depth - 1, -beta, -t);
            SEARCHED();
            t = MAX(t, again);
        }
        if (t > alpha) {
            alpha = t;
            *best_move = m;
        }
        if (alpha >= beta) {
            *value = alpha;
            *last = i;
            *best_move = m;
            return;
        }
        b = alpha + 1;
    }
    *value = alpha;
    *last = ch->n - 1;
}

/* negascout.negascout_fs: Reinefeld's fail-soft NegaScout (m the best value so far). */
static void loop_negascout_fs(Engine *e, Children *ch, int depth, long alpha,
                              long beta, long *value, int *last, Move *best_move) {
    int wide = beta > alpha + 1;
    long m = -INF, nb = beta;
    *best_move = NO_MOVE;
    for (int i = 0; has_child(e, ch, i); i++) {
        Move mv = ch->moves[i];
        long a = MAX(alpha, m);
        long t = i == 0 ? -child(e, LOOP_NEGASCOUT_FS, mv, depth - 1, -nb, -a)
                        : -test(e, LOOP_NEGASCOUT_FS, mv, depth - 1, -nb, -a, wide);
        SEARCHED();
        if (t > m) {
            if (nb == beta || t <= a || t >= beta || depth < e->loop.research_min_depth) {
                m = t;
            } else {
                long again = -research(e, LOOP_NEGASCOUT_FS, mv, depth - 1, -beta, -t);
                SEARCHED();
                m = MAX(t, again);
            }
            *best_move = mv;
        }
        if (m >= beta) {
            *value = m;
            *last = i;
            return;
        }
        nb = MAX(alpha, m) + 1;
    }
    *value = m;
    *last = ch->n - 1;
}

/* negascout.scout: Pearl's Scout; TEST is fail-hard zero-window alpha-beta, every one
 * counted. */
static void loop_scout(Engine *e, Children *ch, int depth, long alpha, long beta,
                       long *value, int *last, Move *best_move) {
    long v = -INF;
    *best_move = NO_MOVE;
    for (int i = 0; has_child(e, ch, i); i++) {
        Move m = ch->moves[i];
        if (i == 0) {
            v = -child(e, LOOP_SCOUT, m, depth - 1, -INF, INF);
            SEARCHED();
            *best_move = m;
            continue;
        }
        long t = -test(e, LOOP_ALPHABETA, m, depth - 1, -v - 1, -v, 1);   /* can m beat v? */
        SEARCHED();
        if (t > v) {
            v = -research(e, LOOP_SCOUT, m, depth - 1, -INF, INF);
            SEARCHED();
            *best_move = m;
        }
    }
    *value = v;
    *last = ch->n - 1;
}

/* pvs.belle: Belle's root over pvs (the engine's parameters: pvs's defaults); a fail-high
 * is pending, unresolved, until a second one. */
static void loop_belle(Engine *e, Children *ch, int depth, long alpha, long beta,
                       long *value, int *last, Move *best_move) {
    int wide = beta > alpha + 1;
    Move pending = NO_MOVE;
    long pending_value = alpha;
    *best_move = NO_MOVE;
    for (int i = 0; has_child(e, ch, i); i++) {
        Move m = ch->moves[i];
        long v;
        if (i == 0) {
            v = -child(e, LOOP_PVS, m, depth - 1, -beta, -alpha);
            SEARCHED();
            if (v >= beta) {
                *value = v;
                *last = i;
                *best_move = m;
                return;
            }
            if (v > alpha) {
                alpha = v;
                *best_move = m;
            }
            continue;
        }
        v = -test(e, LOOP_PVS, m, depth - 1, -alpha - 1, -alpha, wide);
        SEARCHED();
        while (v > alpha) {
            if (pending == NO_MOVE) {        /* the best, its score unknown */
                pending = m;
                pending_value = v;
                break;
            }
            v = -research(e, LOOP_PVS, pending, depth - 1, -beta, -alpha);
            SEARCHED();
            if (v >= beta) {
                *value = v;
                *last = i;
                *best_move = pending;
                return;
            }
            if (v > alpha) {
                alpha = v;
                *best_move = pending;
            }
            pending = NO_MOVE;
            v = -test(e, LOOP_PVS, m, depth - 1, -alpha - 1, -alpha, wide);   /* m again */
            SEARCHED();
        }
    }
    *last = ch->n - 1;
    if (pending != NO_MOVE) {
        e->root_lower_bound = 1;
        *value = pending_value;
        *best_move = pending;
        return;
    }
    *value = alpha;
}

/* zwp.zwp's closed(): the child searched with the closed window [lo, hi], the open
 * (lo - 1, hi + 1), as F (a child), Z (a test, always counted) or Z+F (a re-search). */
enum { ZWP_F, ZWP_Z, ZWP_ZF };

static inline long closed(Engine *e, int loop, Move m, int depth, long lo, long hi, int how) {
    if (how == ZWP_Z)
        return -test(e, loop, m, depth, lo - 1, hi + 1, 1);
    if (how == ZWP_ZF)
        return -research(e, loop, m, depth, lo - 1, hi + 1);
    return -child(e, loop, m, depth, lo - 1, hi + 1);
}

/* zwp.zwp's zero_window: plain alpha-beta with the strict criterion inside a test. */
static void loop_zwp_zero(Engine *e, Children *ch, int depth, long alpha,
                          long beta, long *value, int *last, Move *best_move) {
    long a = alpha + 1, b = MAX(beta - 1, alpha + 1), best = 0;
    int have = 0;
    *best_move = NO_MOVE;
    *last = 0;
    for (int i = 0;; i++) {
        if (b < a || !has_child(e, ch, i))   /* (the window first: the rest may be unasked) */
            break;
        *last = i;
        long r = closed(e, LOOP_ZWP_ZERO, ch->moves[i], depth - 1, -b, -a, ZWP_F);
        SEARCHED();
        if (!have || r > best) {
            best = r;
            *best_move = ch->moves[i];
            have = 1;
        }
        a = MAX(a, r);
    }
    *value = best;
}

/* zwp.zwp's full(expected): the note's merged search at an expected PV, Cut or All node
 * (the loops LOOP_ZWP, LOOP_ZWP_CUT and LOOP_ZWP_ALL). */
static void loop_zwp(Engine *e, int expected, Children *ch, int depth, long alpha,
                     long beta, long *value, int *last, Move *best_move) {
    const LoopParameters *p = &e->loop;
    long a = alpha + 1, b = MAX(beta - 1, alpha + 1), best = 0;
    int have = 0, met = 0;                   /* met: has a successor met alpha (pv_full)? */
    *best_move = NO_MOVE;
    *last = 0;
    for (int i = 0;; i++) {
        if (b < a || !has_child(e, ch, i))   /* (the window first: the rest may be unasked) */
            break;
        *last = i;
        Move m = ch->moves[i];
        int below, is_test;
        if (expected == LOOP_ZWP) {
            int full_first = i == 0 || (p->pv_full && !met);
            below = full_first ? LOOP_ZWP : LOOP_ZWP_CUT;
            is_test = !full_first;
        } else {
            below = expected == LOOP_ZWP_CUT ? LOOP_ZWP_ALL : LOOP_ZWP_CUT;
            is_test = i > 0 || (p->all_first && expected == LOOP_ZWP_ALL);
        }
        long r;
        if (is_test) {
            r = closed(e, LOOP_ZWP_ZERO, m, depth - 1, -a, -a, ZWP_Z);          /* Z */
            SEARCHED();
            if (r < a) {
                if (!have || r > best) {     /* an upper bound on the skipped one */
                    best = r;
                    have = 1;
                }
                continue;
            }
            if (r > a || !p->improve) {
                int again = p->researched_pv ? LOOP_ZWP : below;
                r = closed(e, again, m, depth - 1, -b, -a, ZWP_ZF);               /* Z+F */
                SEARCHED();
            }
        } else {
            r = closed(e, below, m, depth - 1, -b, -a, ZWP_F);                     /* F */
            SEARCHED();
        }
        met = met || r >= a;
        if (!have || r > best) {
            best = r;
            *best_move = m;
            have = 1;
        }
        a = MAX(a, r);
    }
    *value = best;
}

/* The loop named `loop` (a Loop's call in core.py's expand). */
static void run_loop(Engine *e, int loop, Children *ch, int depth, long alpha, long beta,
                     long *value, int *last, Move *best_move) {
    switch (loop) {
    case LOOP_PVS:
        loop_pvs(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_PVS_MARSLAND:
        loop_pvs_marsland(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_NEGASCOUT:
        loop_negascout(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_NEGASCOUT_FS:
        loop_negascout_fs(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_SCOUT:
        loop_scout(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_BELLE:
        loop_belle(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_ZWP:
    case LOOP_ZWP_CUT:
    case LOOP_ZWP_ALL:
        loop_zwp(e, loop, ch, depth, alpha, beta, value, last, best_move);
        return;
    case LOOP_ZWP_ZERO:
        loop_zwp_zero(e, ch, depth, alpha, beta, value, last, best_move);
        return;
    default:
        loop_alphabeta(e, loop, ch, depth, alpha, beta, value, last, best_move);
    }
}

#undef SEARCHED
#undef MAX

#endif
