/* SSS* and DUAL* (sss.py's best_first), state for state, over a native tree (_engine.c, the
 * only file that includes this): Engine.best_first.
 *
 * sss.py keeps OPEN as a dict of paths and a heap, and reaches every state by replaying
 * its path from the root through the tree's Python methods. Here every node the search
 * generates is a record (its move, its parent, the nodes generated below it, its path of
 * child indices), OPEN is a binary heap of (merit, node) ordered as sss.py's heap orders
 * (-merit, path): highest merit first, ties to the lexicographically smallest path; a
 * state is the node's own fields, and a heap entry whose merit is no longer its node's is
 * stale and skipped, as there. The cursor moves from the node it is at to the next one
 * through their deepest common ancestor (pops, then pushes), not from the root.
 * tests/test_sss.py compares the two search by search: value, best move, status, every
 * counter, the nodes generated and OPEN's largest size. */
#ifndef HARNESS_SEARCH_ENGINE_BEST_FIRST_H
#define HARNESS_SEARCH_ENGINE_BEST_FIRST_H

enum { BF_LIVE = 0, BF_SOLVED = 1 };
#define BF_MAX_PLY 4096          /* a path longer than this is refused (sss.py has no limit
                                  * but memory; a depth is at most MAX_DEPTH plus checks) */

typedef struct {
    Move move;                   /* the move from its parent (the root: NO_MOVE) */
    long merit;                  /* its state's merit, when it has one */
    int32_t parent;              /* -1 at the root */
    int32_t first_child;         /* the nodes generated below it, a list (-1: none) */
    int32_t next_sibling;
    int32_t remaining;           /* the depth left at it, set when it is visited */
    int32_t moves;               /* its number of moves, set when visited as interior */
    uint32_t path;               /* its path (child indices from the root) in the pool */
    uint16_t ply;                /* the path's length */
    char has_state, status;      /* on OPEN; LIVE or SOLVED */
} BFNode;

typedef struct {
    long merit;
    int32_t node;
} BFEntry;

typedef struct {
    BFNode *nodes;
    int32_t count, capacity;
    uint16_t *paths;             /* the nodes' paths, one after another */
    size_t paths_used, paths_capacity;
    BFEntry *heap;
    size_t heap_count, heap_capacity;
    long open_count;             /* states on OPEN: len(states) */
    int32_t at;                  /* the node the tree's cursor is at */
    int32_t *route;              /* bf_goto's stack of nodes to push */
} BestFirst;

static void bf_free(BestFirst *b) {
    free(b->nodes);
    free(b->paths);
    free(b->heap);
    free(b->route);
}

/* Whether node a's path sorts before node b's (Python's tuple order: a proper prefix
 * first). */
static int bf_path_less(const BestFirst *b, int32_t x, int32_t y) {
    const BFNode *a = &b->nodes[x], *c = &b->nodes[y];
    const uint16_t *p = b->paths + a->path, *q = b->paths + c->path;
    int n = a->ply < c->ply ? a->ply : c->ply;
    for (int i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] < q[i];
    return a->ply < c->ply;
}

static inline int bf_before(const BestFirst *b, const BFEntry *x, const BFEntry *y) {
    if (x->merit != y->merit)
        return x->merit > y->merit;
    return bf_path_less(b, x->node, y->node);
}

static int bf_heap_push(BestFirst *b, long merit, int32_t node) {
    if (b->heap_count == b->heap_capacity) {
        size_t capacity = b->heap_capacity ? 2 * b->heap_capacity : 1024;
        BFEntry *heap = realloc(b->heap, capacity * sizeof(BFEntry));
        if (heap == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->heap = heap;
        b->heap_capacity = capacity;
    }
    size_t i = b->heap_count++;
    BFEntry entry = {merit, node};
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!bf_before(b, &entry, &b->heap[up]))
            break;
        b->heap[i] = b->heap[up];
        i = up;
    }
    b->heap[i] = entry;
    return 0;
}

static BFEntry bf_heap_pop(BestFirst *b) {
    BFEntry top = b->heap[0];
    BFEntry last = b->heap[--b->heap_count];
    size_t n = b->heap_count, i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && bf_before(b, &b->heap[child + 1], &b->heap[child]))
            child++;
        if (!bf_before(b, &b->heap[child], &last))
            break;
        b->heap[i] = b->heap[child];
        i = child;
    }
    if (n > 0)
        b->heap[i] = last;
    return top;
}

/* A new node: child number `index` of `parent` (-1: the root), reached by `move`; its
 * number, or -1 with an exception set. */
static int32_t bf_node(BestFirst *b, int32_t parent, int index, Move move) {
    if (b->count == b->capacity) {
        int32_t capacity = b->capacity ? 2 * b->capacity : 1024;
        BFNode *nodes = realloc(b->nodes, (size_t)capacity * sizeof(BFNode));
        if (nodes == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->nodes = nodes;
        b->capacity = capacity;
    }
    int ply = parent < 0 ? 0 : b->nodes[parent].ply + 1;
    if (ply > BF_MAX_PLY) {
        PyErr_SetString(PyExc_RecursionError, "SSS* in the compiled frame: a path deeper "
                        "than its limit");
        return -1;
    }
    if (b->paths_used + (size_t)ply > b->paths_capacity) {
        size_t capacity = b->paths_capacity ? 2 * b->paths_capacity : 8192;
        while (capacity < b->paths_used + (size_t)ply)
            capacity *= 2;
        uint16_t *paths = realloc(b->paths, capacity * sizeof(uint16_t));
        if (paths == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->paths = paths;
        b->paths_capacity = capacity;
    }
    int32_t id = b->count++;
    BFNode *node = &b->nodes[id];
    node->move = move;
    node->merit = 0;
    node->parent = parent;
    node->first_child = -1;
    node->next_sibling = -1;
    node->remaining = 0;
    node->moves = 0;
    node->path = (uint32_t)b->paths_used;
    node->ply = (uint16_t)ply;
    node->has_state = 0;
    node->status = BF_LIVE;
    if (parent >= 0) {
        BFNode *up = &b->nodes[parent];
        memcpy(b->paths + node->path, b->paths + up->path, (size_t)up->ply * sizeof(uint16_t));
        b->paths[node->path + up->ply] = (uint16_t)index;
        node->next_sibling = up->first_child;
        up->first_child = id;
    }
    b->paths_used += (size_t)ply;
    return id;
}

/* sss.py's push: the node's state set (replacing any it had) and put on the heap. */
static int bf_push(BestFirst *b, int32_t id, int status, long merit) {
    BFNode *node = &b->nodes[id];
    if (!node->has_state) {
        node->has_state = 1;
        b->open_count++;
    }
    node->status = (char)status;
    node->merit = merit;
    return bf_heap_push(b, merit, id);
}

/* sss.py's purge_below: every state strictly below `parent` leaves OPEN. Its subtree is
 * cut from the lists (it is never searched again: `parent` is solved). */
static void bf_purge_below(BestFirst *b, int32_t parent) {
    int32_t stack_top = b->nodes[parent].first_child;
    b->nodes[parent].first_child = -1;
    /* An explicit walk: next_sibling chains the children, first_child goes down. */
    int32_t *route = b->route;
    int depth = 0;
    int32_t id = stack_top;
    while (id >= 0 || depth > 0) {
        if (id < 0) {
            id = route[--depth];
            continue;
        }
        BFNode *node = &b->nodes[id];
        if (node->has_state) {
            node->has_state = 0;
            b->open_count--;
        }
        if (node->first_child >= 0) {
            route[depth++] = node->next_sibling;
            id = node->first_child;
        } else
            id = node->next_sibling;
    }
}

/* Move the tree's cursor to node `target` through the deepest common ancestor. */
static void bf_goto(BestFirst *b, Engine *e, int32_t target) {
    int32_t at = b->at, to = target;
    int pushes = 0;
    while (b->nodes[at].ply > b->nodes[to].ply) {
        e->api->pop(e->tree);
        at = b->nodes[at].parent;
    }
    while (b->nodes[to].ply > b->nodes[at].ply) {
        b->route[pushes++] = to;
        to = b->nodes[to].parent;
    }
    while (at != to) {
        e->api->pop(e->tree);
        at = b->nodes[at].parent;
        b->route[pushes++] = to;
        to = b->nodes[to].parent;
    }
    while (pushes > 0)
        e->api->push(e->tree, b->nodes[b->route[--pushes]].move);
    b->at = target;
}

/* The search: sss.py's best_first without its trace and leaf list. The root's value for
 * the side to move in *value, the best root move's index in *best (-1: none), 1 for the
 * status max-open (0: ok), the nodes generated and OPEN's largest size; -1 with an
 * exception set when it failed (the node limit, a signal, memory). The cursor ends at the
 * root either way. */
static int bf_search(Engine *e, BestFirst *b, int depth, int dual, long max_open,
                     long *value, long *best, long *generated, long *largest) {
    long long *c = e->counters;
    c[PASSES]++;
    e->next_check = c[NODES];                /* node_limit may be new: check at once */
    int max_parity = dual ? 1 : 0;
    Move moves[NATIVE_MAX_MOVES];
    long best_merit = 0;
    *best = -1;
    *generated = 1;
    *largest = 1;
    b->route = malloc((BF_MAX_PLY + 2) * sizeof(int32_t));
    if (b->route == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int32_t root = bf_node(b, -1, 0, NO_MOVE);
    if (root < 0 || bf_push(b, root, BF_LIVE, INF) < 0)
        return -1;
    b->at = root;
    for (;;) {
        if (b->heap_count == 0) {
            PyErr_SetString(PyExc_RuntimeError, "SSS*: OPEN ran empty");
            break;
        }
        BFEntry entry = bf_heap_pop(b);
        BFNode *node = &b->nodes[entry.node];
        if (!node->has_state || node->merit != entry.merit)
            continue;                        /* purged or superseded: a stale entry */
        int status = node->status;
        long merit = node->merit;
        int32_t id = entry.node;
        node->has_state = 0;
        b->open_count--;
        if (status == BF_SOLVED && id == root) {
            bf_goto(b, e, root);
            *value = dual ? -merit : merit;
            return 0;
        }
        int is_max = node->ply % 2 == max_parity;
        if (status == BF_LIVE) {
            if (++c[NODES] > e->next_check && must_stop(e))
                break;
            bf_goto(b, e, id);
            node = &b->nodes[id];
            int remaining = id == root ? depth : b->nodes[node->parent].remaining - 1;
            if (id != root && e->extend_checks && e->api->in_check(e->tree))
                remaining++;
            node->remaining = remaining;
            int n = 0;
            long leaf = 0;
            int is_leaf = 1;
            if (remaining <= 0) {
                c[LEAVES]++;
                leaf = horizon(e, -INF, INF);
            } else if ((n = e->api->moves(e->tree, moves)) == 0) {
                c[LEAVES]++;
                leaf = e->api->terminal_value(e->tree);
            } else
                is_leaf = 0;
            if (is_leaf) {                                          /* case 1 */
                if (node->ply % 2 != max_parity)
                    leaf = -leaf;            /* the tree's value is for the side to move there */
                if (bf_push(b, id, BF_SOLVED, merit < leaf ? merit : leaf) < 0)
                    break;
            } else if (is_max) {                                    /* case 2 */
                node->moves = n;
                for (int i = 0; i < n; i++) {
                    int32_t child = bf_node(b, id, i, moves[i]);
                    if (child < 0 || bf_push(b, child, BF_LIVE, merit) < 0)
                        goto failed;
                }
                *generated += n;
            } else {                                                /* case 3 */
                node->moves = n;
                int32_t child = bf_node(b, id, 0, moves[0]);
                if (child < 0 || bf_push(b, child, BF_LIVE, merit) < 0)
                    break;
                *generated += 1;
            }
        } else {
            int32_t parent = node->parent;
            int index = b->paths[node->path + node->ply - 1];
            if (parent == root && (*best < 0 || merit < best_merit || !dual)) {
                best_merit = merit;          /* SSS*: the child that solves the root */
                *best = index;
            }
            if (!is_max) {                                          /* case 4 */
                bf_purge_below(b, parent);
                if (bf_push(b, parent, BF_SOLVED, merit) < 0)
                    break;
            } else if (index + 1 < b->nodes[parent].moves) {        /* case 5 */
                bf_goto(b, e, parent);
                e->api->moves(e->tree, moves);
                int32_t sibling = bf_node(b, parent, index + 1, moves[index + 1]);
                if (sibling < 0 || bf_push(b, sibling, BF_LIVE, merit) < 0)
                    break;
                *generated += 1;
            } else {                                                /* case 6 */
                if (bf_push(b, parent, BF_SOLVED, merit) < 0)
                    break;
            }
        }
        if (b->open_count > *largest)
            *largest = b->open_count;
        if (b->open_count > max_open) {
            long highest = -INF - 1;
            for (int32_t i = 0; i < b->count; i++)
                if (b->nodes[i].has_state && b->nodes[i].merit > highest)
                    highest = b->nodes[i].merit;
            bf_goto(b, e, root);
            *value = dual ? -highest : highest;
            *best = -1;
            return 1;
        }
    }
failed:
    bf_goto(b, e, root);
    return -1;
}

#endif
