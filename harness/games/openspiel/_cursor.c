/* The per-node methods of an OpenSpiel tree in C: the compiled twin of the methods of
 * harness.games.openspiel.OpenSpielTree for games whose players alternate.
 *
 * The search frame calls a tree's moves, push and value once or more at every node; as
 * Python methods around pyspiel's calls they cost about as much as the calls themselves.
 * Here they are the same calls made from C, in the same order, on the same stack of
 * states (the Python list the tree owns), so every count is the Python tree's
 * (tests/test_openspiel_cursor.py compares searches node for node). What C does not decide
 * itself (a return that is not an integer once scaled, or is out of range) goes to the
 * Python method, which says why in a HarnessError. Its nodes are pyspiel's objects in the
 * Python tree's list, not values on a stack of its own: ../board_cursor.h, the boards'
 * cursor, says why it does not fit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

static PyObject *s_legal_actions, *s_child, *s_is_terminal, *s_returns;

typedef struct {
    PyObject_HEAD
    PyObject *states;      /* the tree's list of states, root first */
    long root_player;      /* the player to move at the root */
    double unit;           /* returns are multiplied by this */
    double inf;            /* values lie strictly between -inf and inf */
    PyObject *evaluate;    /* a state's evaluation for its player to move, or NULL */
    long long bound;       /* the evaluation is clamped to [-bound, bound]; < 0: not clamped */
    PyObject *fallback;    /* the Python end_value(state, depth): raises for a bad return */
} Cursor;

static void Cursor_dealloc(Cursor *self) {
    Py_XDECREF(self->states);
    Py_XDECREF(self->evaluate);
    Py_XDECREF(self->fallback);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Cursor_init(Cursor *self, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"states", "root_player", "unit", "inf", "evaluate", "bound", "fallback", NULL};
    PyObject *states, *evaluate, *bound, *fallback;
    long root_player;
    long long unit, inf;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!lLLOOO", keywords, &PyList_Type, &states,
                                     &root_player, &unit, &inf, &evaluate, &bound, &fallback))
        return -1;
    if (PyList_GET_SIZE(states) < 1) {
        PyErr_SetString(PyExc_ValueError, "states: the root state first");
        return -1;
    }
    Py_INCREF(states);
    Py_XSETREF(self->states, states);
    self->root_player = root_player;
    self->unit = (double)unit;
    self->inf = (double)inf;
    Py_XDECREF(self->evaluate);
    self->evaluate = NULL;
    if (evaluate != Py_None) {
        Py_INCREF(evaluate);
        self->evaluate = evaluate;
    }
    self->bound = -1;
    if (bound != Py_None) {
        self->bound = PyLong_AsLongLong(bound);
        if (self->bound == -1 && PyErr_Occurred())
            return -1;
    }
    Py_INCREF(fallback);
    Py_XSETREF(self->fallback, fallback);
    return 0;
}

static PyObject *top(Cursor *self) {
    return PyList_GET_ITEM(self->states, PyList_GET_SIZE(self->states) - 1);  /* borrowed */
}

/* The value of the terminal state, depth moves below the root, for its player to move:
 * as PythonCursor.end_value. */
static PyObject *end_value(Cursor *self, PyObject *state, Py_ssize_t depth) {
    PyObject *returns = PyObject_CallMethodNoArgs(state, s_returns);
    if (returns == NULL)
        return NULL;
    PyObject *item = PySequence_GetItem(returns, self->root_player ^ (depth & 1));
    Py_DECREF(returns);
    if (item == NULL)
        return NULL;
    double scaled = PyFloat_AsDouble(item);
    Py_DECREF(item);
    if (scaled == -1.0 && PyErr_Occurred())
        return NULL;
    scaled *= self->unit;
    if (scaled == floor(scaled) && -self->inf < scaled && scaled < self->inf)
        return PyLong_FromDouble(scaled);
    return PyObject_CallFunction(self->fallback, "On", state, depth);
}

/* The value of state, depth moves below the root, for its player to move: as
 * PythonCursor.state_value. */
static PyObject *value_of(Cursor *self, PyObject *state, Py_ssize_t depth) {
    PyObject *flag = PyObject_CallMethodNoArgs(state, s_is_terminal);
    if (flag == NULL)
        return NULL;
    int terminal = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    if (terminal < 0)
        return NULL;
    if (terminal)
        return end_value(self, state, depth);
    if (self->evaluate == NULL)
        return PyLong_FromLong(0);
    PyObject *raw = PyObject_CallOneArg(self->evaluate, state);
    if (raw == NULL)
        return NULL;
    PyObject *value = PyNumber_Long(raw);
    Py_DECREF(raw);
    if (value == NULL || self->bound < 0)
        return value;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        Py_DECREF(value);
        return NULL;
    }
    if (overflow == 0 && -self->bound <= v && v <= self->bound)
        return value;
    Py_DECREF(value);
    return PyLong_FromLongLong(overflow < 0 || (overflow == 0 && v < -self->bound) ? -self->bound : self->bound);
}

static PyObject *Cursor_moves(Cursor *self, PyObject *unused) {
    return PyObject_CallMethodNoArgs(top(self), s_legal_actions);
}

static PyObject *Cursor_push(Cursor *self, PyObject *move) {
    PyObject *child = PyObject_CallMethodOneArg(top(self), s_child, move);
    if (child == NULL)
        return NULL;
    int failed = PyList_Append(self->states, child);
    Py_DECREF(child);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Cursor_value(Cursor *self, PyObject *unused) {
    return value_of(self, top(self), PyList_GET_SIZE(self->states) - 1);
}

static PyObject *Cursor_terminal_value(Cursor *self, PyObject *unused) {
    return end_value(self, top(self), PyList_GET_SIZE(self->states) - 1);
}

static PyObject *Cursor_child_value(Cursor *self, PyObject *move) {
    PyObject *child = PyObject_CallMethodOneArg(top(self), s_child, move);
    if (child == NULL)
        return NULL;
    PyObject *value = value_of(self, child, PyList_GET_SIZE(self->states));
    Py_DECREF(child);
    return value;
}

static PyMethodDef Cursor_methods[] = {
    {"moves", (PyCFunction)Cursor_moves, METH_NOARGS, "The legal actions at the cursor, in OpenSpiel's order."},
    {"push", (PyCFunction)Cursor_push, METH_O, "Step to the child the action leads to."},
    {"value", (PyCFunction)Cursor_value, METH_NOARGS, "The cursor's value for its player to move."},
    {"terminal_value", (PyCFunction)Cursor_terminal_value, METH_NOARGS,
     "The value of the cursor, which has no legal action: the game is over."},
    {"child_value", (PyCFunction)Cursor_child_value, METH_O,
     "The value of the child the action leads to, for its player to move."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CursorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.openspiel._cursor.Cursor",
    .tp_doc = "moves, push, value, terminal_value and child_value of an OpenSpiel tree whose players alternate",
    .tp_basicsize = sizeof(Cursor),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Cursor_init,
    .tp_dealloc = (destructor)Cursor_dealloc,
    .tp_methods = Cursor_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cursor",
    "The per-node methods of an OpenSpiel tree in C (see harness/games/openspiel/game.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit__cursor(void) {
    s_legal_actions = PyUnicode_InternFromString("legal_actions");
    s_child = PyUnicode_InternFromString("child");
    s_is_terminal = PyUnicode_InternFromString("is_terminal");
    s_returns = PyUnicode_InternFromString("returns");
    if (!s_legal_actions || !s_child || !s_is_terminal || !s_returns)
        return NULL;
    if (PyType_Ready(&CursorType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&CursorType);
    if (PyModule_AddObject(m, "Cursor", (PyObject *)&CursorType) < 0) {
        Py_DECREF(&CursorType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
