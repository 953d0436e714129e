/* The C side of a tree (beside harness/games/base.py, its Python side), for the compiled frame
 * (harness/search/_engine.c).
 *
 * A compiled tree (Connect Four's, Othello's, checkers' and chess's _board.c, through
 * board_cursor.h) offers it through a method native_tree() returning a capsule named
 * NATIVE_TREE_CAPSULE that points to a static NativeTree, its context the tree object (a
 * reference the capsule holds), or None where the object's Python methods may not be these
 * (an instance of a subclass): the same methods as the Python Tree protocol
 * (harness/games/base.py), each a plain C call on the tree object, with two restrictions
 * that let the frame keep everything in C:
 * - a move is a non-negative integer below 2^63 (Move), and the Python move object is
 *   that int (checkers' moves, a start square and a path of up to twelve jumps, take 33
 *   bits);
 * - key() is the Python key as an unsigned 64-bit integer (the Python key() returns the
 *   same number as a Python int), so a table slot is hash(key) % size as in table.py.
 * The functions never fail: the frame calls them only where the Python frame would call
 * the Python methods, on nodes the tree itself produced.
 */
#ifndef HARNESS_NATIVE_TREE_H
#define HARNESS_NATIVE_TREE_H

#include <Python.h>
#include <stdint.h>

#define NATIVE_TREE_CAPSULE "harness.search.native_tree"
#define NATIVE_TREE_VERSION 5
#define NATIVE_MAX_MOVES 512    /* the most children a node of a native tree may have */

typedef int64_t Move;

typedef struct {
    int version;                                   /* NATIVE_TREE_VERSION */
    int (*moves)(PyObject *tree, Move *out);       /* moves(): into out, in search order; count */
    void (*push)(PyObject *tree, Move move);
    void (*pop)(PyObject *tree);
    uint64_t (*key)(PyObject *tree);
    long (*value)(PyObject *tree);                 /* the static value at the horizon */
    long (*terminal_value)(PyObject *tree);        /* a node without moves */
    long (*child_value)(PyObject *tree, Move move); /* value() of a child, the cursor unmoved */
    long (*value_bound)(PyObject *tree);           /* NULL: the tree offers none */
    long (*value_floor)(PyObject *tree);           /* NULL: -INF */
    void (*cutoff)(PyObject *tree, Move move, int depth);   /* NULL: nothing to learn */
    uint64_t (*child_key)(PyObject *tree, Move move);       /* the slot hash (key(), or
                                                               slot_hash() where the tree has
                                                               one) of a child, the cursor
                                                               unmoved; NULL: none (the frame
                                                               then does not prefetch) */
    /* What a tree may offer beyond the protocol (harness.games.base's optional methods):
     * each NULL where it does not. */
    /* A tree whose Python key is not an int (chess's: a tuple) gives its Python hash here,
     * a Py_hash_t, and the table's slot is that hash % size as Python's % takes it; key()
     * is then a 64-bit digest of the whole key, which the table compares (the Python frame
     * compares the tuples: the two differ only if two positions' digests collide). NULL:
     * key() is the key itself, an int below 2^64, its slot hash(key) % size. */
    uint64_t (*slot_hash)(PyObject *tree);
    /* key() and slot_hash() of the node at once, where one computation gives both (chess:
     * the key's fields are gathered once); NULL: the two are called. */
    uint64_t (*key_and_slot)(PyObject *tree, uint64_t *slot_hash);
    long (*quiesce)(PyObject *tree, long alpha, long beta, long long *qnodes);
    long (*child_quiesce)(PyObject *tree, Move move, long alpha, long beta, long long *qnodes);
    int (*in_check)(PyObject *tree);                        /* check extension */
    void (*push_null)(PyObject *tree);                      /* null move (pop takes it back) */
    int (*null_allowed)(PyObject *tree, int either);        /* EnhancedTree.null_allowed */
    int (*tactical)(PyObject *tree, Move move);            /* SelectiveTree.tactical: the
                                                               selective switches */
    /* moves() in two stages, where a node's first moves often settle it (chess: its
     * captures and promotions, then its quiet moves): first_moves gives the first of
     * moves()'s list, in its order, and their count (0 only when moves() gives none),
     * *complete set to 0 when more may follow and to 1 when they are the whole list;
     * rest_moves, at the same node, the others in moves()'s order (its count); has_rest,
     * whether rest_moves would give any. Each NULL where the tree has no stages. */
    int (*first_moves)(PyObject *tree, Move *out, int *complete);
    int (*rest_moves)(PyObject *tree, Move *out);
    int (*has_rest)(PyObject *tree);
} NativeTree;

/* ---- for the trees: the capsule their native_tree() returns ---------------------------- */

static inline void native_tree_release(PyObject *capsule) {
    Py_XDECREF((PyObject *)PyCapsule_GetContext(capsule));
}

/* The capsule of `api`, its context `self` (a reference it holds); None when `self` is an
 * instance of a subclass of `type`, whose Python methods may differ from the C ones. */
static inline PyObject *native_tree_capsule(PyObject *self, PyTypeObject *type,
                                            const NativeTree *api) {
    if (Py_TYPE(self) != type)
        Py_RETURN_NONE;
    PyObject *capsule = PyCapsule_New((void *)api, NATIVE_TREE_CAPSULE, native_tree_release);
    if (capsule == NULL)
        return NULL;
    if (PyCapsule_SetContext(capsule, Py_NewRef(self)) < 0) {
        Py_DECREF(self);
        Py_DECREF(capsule);
        return NULL;
    }
    return capsule;
}

#endif
