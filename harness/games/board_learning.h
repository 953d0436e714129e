/* Killer moves and the history heuristic of a compiled board tree with the shared cursor
 * (board_cursor.h, the only file that includes this, where the game defines
 * BOARD_SET_APART): the twin of harness/games/dynamic_order.py, which the Python trees of
 * Othello and checkers use. Chess has its own (chess/board_order.h: its node is more than
 * its State, BOARD_OWN_CURSOR); the model is the same.
 *
 * The game defines, before it includes board_cursor.h:
 *   BOARD_SET_APART     the name of its int f(const Game *, const State *, Move): whether a
 *                       move keeps its place at the front of the static order and teaches
 *                       nothing (Othello: a corner or the pass; checkers: a capture);
 *   BOARD_HISTORY_SIZE  every other move (a quiet one) is below it: its history index is
 *                       the move itself (Othello: 64 squares; checkers: 2048, a step's
 *                       start square and direction);
 * and its Game has `int killers_on, history_on` (the switches, set once by game_new).
 *
 * The quiet moves of a node are sorted by history score, most first, stably; then the
 * killers of its ply that are among them go first, the latest first. The tables are the
 * tree's (its Tree's `learnt`), written by cutoff and forgotten by reset.
 */
#ifndef HARNESS_BOARD_LEARNING_H
#define HARNESS_BOARD_LEARNING_H

typedef struct {
    Move killers[BOARD_PLIES + 1][2];   /* DynamicOrder._killers: the two latest a ply */
    int killer_count[BOARD_PLIES + 1];  /* how many of the two each ply has */
    int killer_plies;                   /* len(DynamicOrder._killers) */
    long long history[BOARD_HISTORY_SIZE];   /* DynamicOrder._history, by move */
} BoardLearning;

static int BOARD_SET_APART(const Game *game, const State *state, Move move);

static inline int learning_active(const Game *g) { return g->killers_on || g->history_on; }

static inline int learning_contains(const Move *moves, int count, Move move) {
    for (int i = 0; i < count; i++)
        if (moves[i] == move)
            return 1;
    return 0;
}

/* DynamicOrder.order over moves[0:n] of a node `ply` plies from the root, in place: the
 * moves set apart first in their order, then the quiet ones by history (an insertion sort,
 * stable: a move passes only moves of a lower score), the ply's killers among them first. */
static void learning_order(const Game *g, const BoardLearning *l, const State *s, int ply,
                           Move *moves, int n) {
    Move apart[NATIVE_MAX_MOVES], rest[NATIVE_MAX_MOVES];
    int apart_count = 0, rest_count = 0;
    for (int i = 0; i < n; i++) {
        if (BOARD_SET_APART(g, s, moves[i]))
            apart[apart_count++] = moves[i];
        else
            rest[rest_count++] = moves[i];
    }
    if (g->history_on) {
        for (int i = 1; i < rest_count; i++) {
            Move move = rest[i];
            long long score = l->history[move];
            int j = i;
            while (j > 0 && l->history[rest[j - 1]] < score) {
                rest[j] = rest[j - 1];
                j--;
            }
            rest[j] = move;
        }
    }
    memcpy(moves, apart, apart_count * sizeof(Move));
    Move *out = moves + apart_count;
    int found = 0;
    if (g->killers_on && ply < l->killer_plies)
        for (int k = 0; k < l->killer_count[ply]; k++)
            if (learning_contains(rest, rest_count, l->killers[ply][k]))
                out[found++] = l->killers[ply][k];
    for (int i = 0, m = found; i < rest_count; i++)
        if (!learning_contains(out, found, rest[i]))
            out[m++] = rest[i];
}

/* DynamicOrder.learn, for a move of the node `ply` plies from the root that failed high
 * at `depth`, unless it is set apart. */
static void learning_cutoff(const Game *g, BoardLearning *l, const State *s, int ply,
                            Move move, long depth) {
    if (!learning_active(g) || BOARD_SET_APART(g, s, move))
        return;
    if (g->killers_on) {
        while (l->killer_plies <= ply)
            l->killer_count[l->killer_plies++] = 0;
        Move *slot = l->killers[ply];
        if (!learning_contains(slot, l->killer_count[ply], move)) {
            slot[1] = slot[0];
            slot[0] = move;
            if (l->killer_count[ply] < 2)
                l->killer_count[ply]++;
        }
    }
    if (g->history_on)
        l->history[move] += (long long)depth * depth;
}

/* DynamicOrder.clear (reset): only a tree that learns has written anything. */
static void learning_clear(const Game *g, BoardLearning *l) {
    if (!learning_active(g))
        return;
    l->killer_plies = 0;
    memset(l->history, 0, sizeof l->history);
}

#endif
