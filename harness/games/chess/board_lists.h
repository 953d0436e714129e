/* The search's move lists in one pass, for the compiled chess tree (_board.c, the only file
 * that includes this, after board_moves.h): the legal moves of a node not in check split
 * into MVV-LVA-sorted tactical moves and quiet ones in python-chess's order
 * (ChessTree.moves's static order), and the legal captures and promotions of a quiescence
 * node in MVV-LVA order (ChessTree._qmoves).
 *
 * board_moves.h gets the same lists in three passes (pseudo-legal moves into a list,
 * Board._is_safe's filter into another, then split_tactical), each move written and read
 * again by every pass; here a move is generated, tested and put in its place once, the
 * pinned pieces' targets cut to their pin's line as sets, and a quiescence node looks only
 * at targets the other side occupies (and promotion squares). The order is the same: the
 * MVV-LVA key (movegen.mvv_lva: the score, then from, to, promotion) is unique to a move,
 * so the tactical moves sort the same whatever order they are found in, and the quiet ones
 * come in python-chess's generation order (Board.generate_pseudo_legal_moves: pieces by
 * square from h8 down, castling, pawn captures, single then double pushes, en passant).
 * A node in check, or without a king, takes board_moves.h's way (evasions are a tenth of
 * the nodes; a quiescence node in check finds its tactical evasions alone,
 * evasion_captures). tests/test_chess_compiled.py compares both with the Python tree. */
#ifndef HARNESS_CHESS_BOARD_LISTS_H
#define HARNESS_CHESS_BOARD_LISTS_H

#include "../native_tree.h"   /* Move: quiet_lists writes the frame's array */

/* Tactical moves (sorted by MVV-LVA key) and quiet ones (in the order found). */
typedef struct {
    long long keys[MAX_MOVES];
    int tactical[MAX_MOVES], quiet[MAX_MOVES];
    int tactical_count, quiet_count;
    int split;                      /* 0: every move into quiet[], in the order found */
} Lists;

/* movegen.mvv_lva's key of a tactical move taking `victim` (NONE: a promotion alone). */
static inline long long mvv_lva_key(const Pos *p, int code, int victim) {
    long score = piece_values[p->piece[FROM(code)]]
                 - 10 * (piece_values[victim] + piece_values[PROMOTION(code)]);
    return (long long)(score + (1L << 30)) << 20 | (long long)FROM(code) << 12 | TO(code) << 6
           | PROMOTION(code);
}

static inline void add_tactical(const Pos *p, Lists *l, int code, int victim) {
    if (!l->split) {
        if (l->quiet_count < MAX_MOVES)
            l->quiet[l->quiet_count++] = code;
        return;
    }
    if (l->tactical_count >= MAX_MOVES)
        return;
    long long key = mvv_lva_key(p, code, victim);
    int j = l->tactical_count++;
    while (j > 0 && l->keys[j - 1] > key) {
        l->keys[j] = l->keys[j - 1];
        l->tactical[j] = l->tactical[j - 1];
        j--;
    }
    l->keys[j] = key;
    l->tactical[j] = code;
}

static inline void add_quiet(Lists *l, int code) {
    if (l->quiet_count < MAX_MOVES)
        l->quiet[l->quiet_count++] = code;
}

/* A pawn's move from `origin` to `target` (all four promotions on the last rank). */
static inline void add_pawn_move(const Pos *p, Lists *l, int origin, int target, int victim) {
    if (BIT(target) & BACK_RANKS) {
        for (int i = 0; i < 4; i++)
            add_tactical(p, l, CODE(origin, target, PROMOTIONS[i]), victim);
    } else if (victim != NONE) {
        add_tactical(p, l, CODE(origin, target, 0), victim);
    } else {
        add_quiet(l, CODE(origin, target, 0));
    }
}

/* The targets Board._is_safe allows a piece other than the king on `origin`: a pinned one
 * (on `blockers`) stays on its line through the king. */
static inline u64 safe_targets(u64 targets, int origin, int king, u64 blockers) {
    return (blockers & BIT(origin)) ? targets & line_through[origin][king] : targets;
}

/* The king's targets that the other side does not attack (Board._is_safe's king rule: not
 * in check, so no slider x-rays through the king's square). */
static inline u64 safe_king_targets(const Pos *p, u64 targets, u64 occupied) {
    u64 safe = 0;
    for (; targets; targets &= targets - 1)
        if (!attackers(p, !p->turn, lsb(targets), occupied))
            safe |= targets & -targets;
    return safe;
}

/* Board.generate_pseudo_legal_ep's moves that do not leave the king attacked. */
static void add_en_passant(const Pos *p, Lists *l) {
    MoveList ep;
    ep.count = 0;
    ep_moves(p, ALL_SQUARES, ALL_SQUARES, &ep);
    for (int i = 0; i < ep.count; i++)
        if (!leaves_king_attacked(p, ep.codes[i]))
            add_tactical(p, l, ep.codes[i], PAWN);
}

/* The pieces' moves (pawns apart), the unsafe ones left out, in
 * Board.generate_pseudo_legal_moves's order: pieces by origin from h8 down, each one's
 * targets likewise. */
static void add_piece_moves(const Pos *p, Lists *l, int king, u64 blockers) {
    int turn = p->turn;
    u64 us = p->side[turn], them = p->side[!turn], occupied = us | them;
    for (u64 origins = us & ~p->bb[PAWN]; origins;) {
        int origin = msb(origins);
        origins ^= BIT(origin);
        u64 targets = piece_attacks(p, origin, occupied) & ~us;
        if (!targets)
            continue;
        if (origin == king)
            targets = safe_king_targets(p, targets, occupied);
        else
            targets = safe_targets(targets, origin, king, blockers);
        if (!l->split) {                    /* one list: captures among the quiet moves */
            while (targets) {
                int target = msb(targets);
                targets ^= BIT(target);
                add_quiet(l, CODE(origin, target, 0));
            }
            continue;
        }
        for (u64 captures = targets & them; captures;) {
            int target = msb(captures);
            captures ^= BIT(target);
            add_tactical(p, l, CODE(origin, target, 0), p->piece[target]);
        }
        /* The quiet ones, counted in a local: a store into quiet[] might otherwise be
         * taken to change quiet_count (both are ints), which would be read again each
         * move. A piece has at most 27 targets. */
        u64 quiet = targets & ~them;
        int count = l->quiet_count;
        if (count + 27 > MAX_MOVES) {       /* (no position a game reaches has so many) */
            for (; quiet; quiet ^= BIT(msb(quiet)))
                add_quiet(l, CODE(origin, msb(quiet), 0));
            continue;
        }
        while (quiet) {
            int target = msb(quiet);
            quiet ^= BIT(target);
            l->quiet[count++] = CODE(origin, target, 0);
        }
        l->quiet_count = count;
    }
}

/* The pawns' captures (onto `them`), origins and targets from h8 down. */
static void add_pawn_captures(const Pos *p, Lists *l, int king, u64 blockers) {
    int turn = p->turn;
    u64 pawns = p->bb[PAWN] & p->side[turn], them = p->side[!turn];
    u64 capturers = pawns & (turn ? ((them >> 7) & ~FILE_A) | ((them >> 9) & ~FILE_H)
                                  : ((them << 9) & ~FILE_A) | ((them << 7) & ~FILE_H));
    while (capturers) {
        int origin = msb(capturers);
        capturers ^= BIT(origin);
        u64 targets = safe_targets(pawn_attacks[turn][origin] & them, origin, king, blockers);
        while (targets) {
            int target = msb(targets);
            targets ^= BIT(target);
            add_pawn_move(p, l, origin, target, p->piece[target]);
        }
    }
}

/* The pawns' pushes to `push_mask`: single pushes from h8 down, then double ones. */
static void add_pawn_pushes(const Pos *p, Lists *l, int king, u64 blockers, u64 push_mask) {
    int turn = p->turn;
    u64 pawns = p->bb[PAWN] & p->side[turn], single, twice;
    int step = pawn_pushes(pawns, occupancy(p), turn, &single, &twice);
    single &= push_mask;
    twice &= push_mask;
    while (single) {
        int target = msb(single), origin = target + step;
        single ^= BIT(target);
        if (!(blockers & BIT(origin)) || (line_through[origin][target] & BIT(king)))
            add_pawn_move(p, l, origin, target, NONE);
    }
    while (twice) {
        int target = msb(twice), origin = target + 2 * step;
        twice ^= BIT(target);
        if (!(blockers & BIT(origin)) || (line_through[origin][target] & BIT(king)))
            add_quiet(l, CODE(origin, target, 0));
    }
}

/* The legal moves of a node not in check whose king is on `king`, in python-chess's order
 * (split: tactical ones sorted by MVV-LVA apart). */
static void node_lists(const Pos *p, int king, int split, Lists *l) {
    l->tactical_count = l->quiet_count = 0;
    l->split = split;
    u64 blockers = slider_blockers(p, king);
    add_piece_moves(p, l, king, blockers);
    if (p->bb[KING] & p->side[p->turn]) {
        MoveList castles;                       /* castling_moves tests its own safety */
        castles.count = 0;
        castling_moves(p, ALL_SQUARES, ALL_SQUARES, &castles);
        for (int i = 0; i < castles.count; i++)
            add_quiet(l, castles.codes[i]);
    }
    add_pawn_captures(p, l, king, blockers);
    add_pawn_pushes(p, l, king, blockers, ALL_SQUARES);
    if (p->ep > 0)
        add_en_passant(p, l);
}

/* ---- a quiescence node's list: its captures and promotions alone ----------------------- */

/* A tactical move's place in MVV-LVA order packed into one number whose signed order is
 * movegen.mvv_lva's (the score, then from, to, promotion) and whose low 15 bits are the
 * move's code: score * 2^30 + (from, to, promotion) * 2^15 + code. The score (the
 * attacker's value less ten times the victim's and the promotion's) stays within +-2^33
 * for piece values under 2^28 (evaluation.py's are under 1,000). */
#define ORDER_FROM(origin) ((long long)(origin) << 24 | (origin))
#define ORDER_TO(target) ((long long)(target) << 18 | (long long)(target) << 6)
#define ORDER_PROMOTION(promotion) ((long long)(promotion) << 15 | (long long)(promotion) << 12)
#define ORDER_SCORE(score) ((long long)(score) * (1LL << 30))
#define ORDER_CODE(order) ((int)((order) & 0x7FFF))

/* The captures of `victims` by a piece (not a pawn) scoring `value` less ten times the
 * victim's value, ORDER_FROM(origin) `from`, into orders[*n...]. */
static inline void capture_orders(const Pos *p, long long *orders, int *n, long value,
                                  long long from, u64 victims) {
    for (; victims; victims &= victims - 1) {
        int target = lsb(victims);
        orders[(*n)++] = ORDER_SCORE(value - 10 * piece_values[p->piece[target]]) | from
                         | ORDER_TO(target);
    }
}

/* The captures of the sliders on `origins` (attacker's value less no promotion's: `value`)
 * along their diagonals and/or straight lines, into orders[*n...]; a line without a victim
 * on the empty board is not looked up. */
static inline void slider_orders(const Pos *p, long long *orders, int *n, long value,
                                 u64 origins, int diagonal, int straight, int king,
                                 u64 blockers) {
    u64 them = p->side[!p->turn], occupied = p->side[0] | p->side[1];
    for (; origins; origins &= origins - 1) {
        int origin = lsb(origins);
        u64 targets = 0;
        if (diagonal && (bishop_rays[origin] & them))
            targets = bishop_attacks(origin, occupied);
        if (straight && (rook_rays[origin] & them))
            targets |= rook_attacks(origin, occupied);
        if (targets & them)
            capture_orders(p, orders, n, value, ORDER_FROM(origin),
                           safe_targets(targets & them, origin, king, blockers));
    }
}

/* The pawns' moves to `targets` from `step` back (captures, or pushes when `capture` is
 * 0), all four promotions on the last rank, into orders[*n...]; `none`: ten times no
 * promotion's value. */
static inline void pawn_orders(const Pos *p, long long *orders, int *n, u64 targets, int step,
                               int capture, long none) {
    long pawn = piece_values[PAWN];
    for (; targets; targets &= targets - 1) {
        int target = lsb(targets), origin = target - step;
        long victim = 10 * (capture ? piece_values[p->piece[target]] : piece_values[NONE]);
        long long move = ORDER_FROM(origin) | ORDER_TO(target);
        if (BIT(target) & BACK_RANKS) {
            for (int i = 0; i < 4; i++)
                orders[(*n)++] = ORDER_SCORE(pawn - victim - 10 * piece_values[PROMOTIONS[i]])
                                 | move | ORDER_PROMOTION(PROMOTIONS[i]);
        } else {
            orders[(*n)++] = ORDER_SCORE(pawn - victim - none) | move;
        }
    }
}

/* *x and *y in order: the lesser into *x (a conditional move, not a branch). */
static inline void order_pair(long long *x, long long *y) {
    long long low = *x < *y ? *x : *y;
    *y ^= *x ^ low;
    *x = low;
}

/* At most 8 captures a piece, 12 moves a pawn (two captures and a push, each promoting 4
 * ways), 2 en passant: room for any board, so nothing is checked as moves are found. */
#define MAX_TACTICAL (64 * 12 + 2)

/* The legal captures and promotions of a node not in check whose king is on `king`, its
 * pinned pieces `blockers`, in MVV-LVA order (node_lists's tactical list), into sorted[]
 * (the first MAX_MOVES); their count. The moves are found first, then sorted: an order
 * number names its move, so the order found does not matter to the result, only to the
 * sort's work. They are found kind by kind, the attackers evaluation.py values least first
 * (king, pawns, knights, bishops, rooks, queens: for one victim, MVV-LVA's order), each
 * loop knowing its attacker's value; a slider whose empty-board lines hold no victim skips
 * its attack lookup; a pinned knight never moves (a knight's step leaves every line); the
 * unpinned pawns' captures come as sets, a diagonal at a time. */
static int tactical_lists(const Pos *p, int king, u64 blockers, int *sorted) {
    long long orders[MAX_TACTICAL];
    int n = 0, turn = p->turn;
    u64 us = p->side[turn], them = p->side[!turn], occupied = us | them;
    long none = 10 * piece_values[NONE];          /* no promotion (0 in evaluation.py) */
    long value = piece_values[KING] - none;
    u64 targets = king_attacks[king] & them;
    if (targets)
        capture_orders(p, orders, &n, value, ORDER_FROM(king),
                       safe_king_targets(p, targets, occupied));
    u64 kings = us & p->bb[KING];
    if (kings & (kings - 1)) {                      /* (more than one: not in a game) */
        for (kings &= ~BIT(king); kings; kings &= kings - 1) {
            int origin = lsb(kings);
            capture_orders(p, orders, &n, value, ORDER_FROM(origin),
                           safe_targets(king_attacks[origin] & them, origin, king, blockers));
        }
    }
    /* Pawns: White's step up a rank is +8, a capture toward the a-file +7, the h-file +9. */
    u64 pawns = p->bb[PAWN] & us, free = pawns & ~blockers;
    int forward = turn ? 8 : -8;
    u64 west = (turn ? (free & ~FILE_A) << 7 : (free & ~FILE_A) >> 9) & them;
    u64 east = (turn ? (free & ~FILE_H) << 9 : (free & ~FILE_H) >> 7) & them;
    if (west | east) {
        pawn_orders(p, orders, &n, west, forward - 1, 1, none);
        pawn_orders(p, orders, &n, east, forward + 1, 1, none);
    }
    for (u64 pinned = pawns & blockers; pinned; pinned &= pinned - 1) {
        int origin = lsb(pinned);
        u64 line = pawn_attacks[turn][origin] & them & line_through[origin][king];
        for (; line; line &= line - 1)
            pawn_orders(p, orders, &n, line & -line, lsb(line) - origin, 1, none);
    }
    if (pawns & (turn ? RANK_8 >> 8 : RANK_1 << 8)) {            /* promotions by a push */
        u64 single, twice;
        int step = pawn_pushes(pawns, occupied, turn, &single, &twice);
        for (single &= BACK_RANKS; single; single &= single - 1) {
            int target = lsb(single), origin = target + step;
            if (!(blockers & BIT(origin)) || (line_through[origin][target] & BIT(king)))
                pawn_orders(p, orders, &n, single & -single, -step, 0, none);
        }
    }
    value = piece_values[KNIGHT] - none;
    for (u64 origins = us & p->bb[KNIGHT] & ~blockers; origins; origins &= origins - 1) {
        int origin = lsb(origins);
        capture_orders(p, orders, &n, value, ORDER_FROM(origin), knight_attacks[origin] & them);
    }
    slider_orders(p, orders, &n, piece_values[BISHOP] - none, us & p->bb[BISHOP], 1, 0, king,
                  blockers);
    slider_orders(p, orders, &n, piece_values[ROOK] - none, us & p->bb[ROOK], 0, 1, king,
                  blockers);
    slider_orders(p, orders, &n, piece_values[QUEEN] - none, us & p->bb[QUEEN], 1, 1, king,
                  blockers);
    if (p->ep > 0) {
        MoveList ep;
        ep.count = 0;
        ep_moves(p, ALL_SQUARES, ALL_SQUARES, &ep);
        for (int i = 0; i < ep.count; i++)
            if (!leaves_king_attacked(p, ep.codes[i]))
                orders[n++] = ORDER_SCORE(piece_values[PAWN] - 10 * piece_values[PAWN] - none)
                              | ORDER_FROM(FROM(ep.codes[i])) | ORDER_TO(TO(ep.codes[i]));
    }
    if (n >= 2 && n <= 4) {         /* (most lists): a sorting network, without branches */
        long long a = orders[0], b = orders[1], c = n >= 3 ? orders[2] : LLONG_MAX;
        long long d = n == 4 ? orders[3] : LLONG_MAX;      /* (above every order) */
        order_pair(&a, &b);
        order_pair(&c, &d);
        order_pair(&a, &c);
        order_pair(&b, &d);
        order_pair(&b, &c);
        sorted[0] = ORDER_CODE(a);
        sorted[1] = ORDER_CODE(b);
        if (n >= 3)
            sorted[2] = ORDER_CODE(c);
        if (n == 4)
            sorted[3] = ORDER_CODE(d);
        return n;
    }
    for (int i = 1; i < n; i++) {                   /* (five or more) */
        long long order = orders[i];
        int j = i;
        for (; j > 0 && orders[j - 1] > order; j--)
            orders[j] = orders[j - 1];
        orders[j] = order;
    }
    if (n > MAX_MOVES)
        n = MAX_MOVES;
    for (int i = 0; i < n; i++)
        sorted[i] = ORDER_CODE(orders[i]);
    return n;
}

/* The legal captures and promotions of a node in check whose king is on `king`, in
 * MVV-LVA order, into sorted[]; their count. The tactical ones of legal_moves's evasions
 * (Board._generate_evasions) found alone: the king's captures off the checkers' lines;
 * against one checker, its capture by another piece (a pawn's promoting 4 ways), a pawn
 * promoting on a square between, en passant when evasions would try it; then keep_safe and
 * the MVV-LVA sort as legal_moves and split_tactical. Apart from quiesce_node, which it
 * would crowd. */
static __attribute__((noinline)) int evasion_captures(const Pos *p, int king, int *sorted) {
    int turn = p->turn;
    u64 us = p->side[turn], them = p->side[!turn], occupied = us | them;
    u64 checkers = attackers(p, !turn, king, occupied);
    MoveList candidates, legal;
    candidates.count = 0;
    u64 sliders = checkers & (p->bb[BISHOP] | p->bb[ROOK] | p->bb[QUEEN]), attacked = 0;
    for (u64 s = sliders; s; s &= s - 1)
        attacked |= line_through[king][lsb(s)] & ~BIT(lsb(s));
    for (u64 targets = king_attacks[king] & them & ~attacked; targets; targets &= targets - 1)
        push_code(&candidates, CODE(king, lsb(targets), 0));
    int checker = msb(checkers);
    if (BIT(checker) == checkers) {
        u64 block = between[king][checker];
        u64 capturers = attackers(p, turn, checker, occupied) & ~p->bb[KING];
        for (; capturers; capturers &= capturers - 1) {
            int origin = lsb(capturers);
            if ((BIT(origin) & p->bb[PAWN]) && (checkers & BACK_RANKS)) {
                for (int i = 0; i < 4; i++)
                    push_code(&candidates, CODE(origin, checker, PROMOTIONS[i]));
            } else {
                push_code(&candidates, CODE(origin, checker, 0));
            }
        }
        u64 single, twice;
        int step = pawn_pushes(p->bb[PAWN] & us, occupied, turn, &single, &twice);
        for (single &= block & BACK_RANKS; single; single &= single - 1)
            for (int i = 0; i < 4; i++)
                push_code(&candidates, CODE(lsb(single) + step, lsb(single), PROMOTIONS[i]));
        if (p->ep > 0 && ((BIT(p->ep) & block) || p->ep + (turn ? -8 : 8) == checker))
            ep_moves(p, ALL_SQUARES, ALL_SQUARES, &candidates);
    }
    keep_safe(p, king, &candidates, &legal);
    return split_tactical(p, legal.codes, legal.count, sorted, NULL, NULL);
}

/* The legal captures and promotions in MVV-LVA order into sorted[] (ChessTree._qmoves);
 * their count. */
static int quiescence_moves(const Pos *p, int *sorted) {
    int king = king_square(p, p->turn);
    u64 blockers;
    if (king < 0) {
        MoveList legal;
        legal_moves(p, &legal);
        return split_tactical(p, legal.codes, legal.count, sorted, NULL, NULL);
    }
    if (checked_else_blockers(p, king, &blockers))
        return evasion_captures(p, king, sorted);
    return tactical_lists(p, king, blockers, sorted);
}

/* The quiet moves of a node not in check whose king is on `king` (node_lists's quiet list,
 * in python-chess's order: pieces from h8 down, castling, single pushes, double pushes)
 * into out; their count. The compiled frame's second stage: most cut nodes never ask. */
static int quiet_lists(const Pos *p, int king, Move *out) {
    int turn = p->turn, n = 0;
    u64 us = p->side[turn], occupied = occupancy(p), empty = ~occupied;
    u64 blockers = slider_blockers(p, king);
    for (u64 origins = us & ~p->bb[PAWN]; origins;) {
        int origin = msb(origins);
        origins ^= BIT(origin);
        u64 targets = piece_attacks(p, origin, occupied) & empty;
        if (!targets)
            continue;
        targets = origin == king ? safe_king_targets(p, targets, occupied)
                                 : safe_targets(targets, origin, king, blockers);
        while (targets) {
            int target = msb(targets);
            targets ^= BIT(target);
            out[n++] = CODE(origin, target, 0);
        }
    }
    MoveList castles;                           /* castling_moves tests its own safety */
    castles.count = 0;
    castling_moves(p, ALL_SQUARES, ALL_SQUARES, &castles);
    for (int i = 0; i < castles.count; i++)
        out[n++] = castles.codes[i];
    u64 single, twice;
    int step = pawn_pushes(p->bb[PAWN] & us, occupied, turn, &single, &twice);
    single &= ~BACK_RANKS;                      /* (promotions are tactical) */
    while (single) {
        int target = msb(single), origin = target + step;
        single ^= BIT(target);
        if (!(blockers & BIT(origin)) || (line_through[origin][target] & BIT(king)))
            out[n++] = CODE(origin, target, 0);
    }
    while (twice) {
        int target = msb(twice), origin = target + 2 * step;
        twice ^= BIT(target);
        if (!(blockers & BIT(origin)) || (line_through[origin][target] & BIT(king)))
            out[n++] = CODE(origin, target, 0);
    }
    return n;
}

/* Whether quiet_lists would give any move: most positions show one at their first piece
 * (a knight, bishop, rook or queen with an empty square it may go to); else the list. */
static int has_quiet(const Pos *p, int king) {
    u64 us = p->side[p->turn], occupied = occupancy(p);
    u64 blockers = slider_blockers(p, king);
    for (u64 origins = us & ~p->bb[PAWN] & ~p->bb[KING]; origins; origins &= origins - 1) {
        int origin = lsb(origins);
        if (safe_targets(piece_attacks(p, origin, occupied) & ~occupied, origin, king, blockers))
            return 1;
    }
    Move quiet[MAX_MOVES];
    return quiet_lists(p, king, quiet) > 0;
}

#endif
