/* engine.konchinka.ai._kernel: the Python face of Кончинка's playout kernel (see konchinka.h and
 * engine/konchinka/ai/kernel.py).
 *
 * A state crosses the boundary as a flat tuple of ints, built and read by engine/konchinka/ai/kernel.py:
 *   (n, points_variant, multi, forced, early_finish, target, current, dealer, last_capturer, status,
 *    winner, (hands), (cards), (clubs), (konch), (totals), (table), (deck), (deal points),
 *    (deal cards), (deal clubs))
 * Actions are (kind, card, taken mask): kind 0 lay, 1 capture, 2 finish (card -1).
 * A function that meets a position the kernel declines returns None.
 */
#include "pytuple.h"

#include "konchinka.h"

static int read_seats(PyObject *t, Py_ssize_t i, int n, int *out) {
    Py_ssize_t len;
    if (!read_ints(PyTuple_GET_ITEM(t, i), out, KON_MAX_PLAYERS, &len)) return 0;
    if (len != n) {
        PyErr_SetString(PyExc_ValueError, "konchinka state: one number per seat expected");
        return 0;
    }
    return 1;
}

static int kon_read(PyObject *t, KonState *s) {
    if (!check_tuple(t, 21, "konchinka state")) return 0;
    long v[11];
    for (int i = 0; i < 11; i++)
        if (!read_long(t, i, &v[i])) return 0;
    s->n = (int)v[0];
    if (s->n < 2 || s->n > KON_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "konchinka state: 2 to 4 players");
        return 0;
    }
    s->points_variant = (int)v[1];
    s->multi = (int)v[2];
    s->forced = (int)v[3];
    s->early_finish = (int)v[4];
    s->target = (int)v[5];
    s->current = (int)v[6];
    s->dealer = (int)v[7];
    s->last_capturer = (int)v[8];
    s->status = (int)v[9];
    s->winner = (int)v[10];
    PyObject *hands = PyTuple_GET_ITEM(t, 11);
    if (!check_tuple(hands, s->n, "konchinka hands")) return 0;
    for (int p = 0; p < s->n; p++)
        if (!read_mask(hands, p, &s->hand[p])) return 0;
    if (!read_seats(t, 12, s->n, s->cards) || !read_seats(t, 13, s->n, s->clubs) || !read_seats(t, 14, s->n, s->konch) ||
        !read_seats(t, 15, s->n, s->totals))
        return 0;
    Py_ssize_t len;
    if (!read_ints(PyTuple_GET_ITEM(t, 16), s->table, 52, &len)) return 0;
    s->table_len = (int)len;
    if (!read_ints(PyTuple_GET_ITEM(t, 17), s->deck, 52, &len)) return 0;
    s->deck_len = (int)len;
    s->deck_pos = 0;
    if (!read_seats(t, 18, s->n, s->deal_points) || !read_seats(t, 19, s->n, s->deal_cards) ||
        !read_seats(t, 20, s->n, s->deal_clubs))
        return 0;
    if (s->current < -1 || s->current >= s->n) {
        PyErr_SetString(PyExc_ValueError, "konchinka state: no such seat to move");
        return 0;
    }
    return 1;
}

static PyObject *seats_tuple(const int *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int p = 0; p < n; p++) PyTuple_SET_ITEM(t, p, PyLong_FromLong(values[p]));
    return t;
}

static PyObject *kon_write(const KonState *s) {
    PyObject *hands = PyTuple_New(s->n);
    if (hands == NULL) return NULL;
    for (int p = 0; p < s->n; p++) PyTuple_SET_ITEM(hands, p, PyLong_FromUnsignedLongLong(s->hand[p]));
    PyObject *table = seats_tuple(s->table, s->table_len);
    PyObject *deck = seats_tuple(s->deck + s->deck_pos, s->deck_len - s->deck_pos);
    return Py_BuildValue("(iiiiiiiiiiiNNNNNNNNNN)", s->n, s->points_variant, s->multi, s->forced, s->early_finish,
                         s->target, s->current, s->dealer, s->last_capturer, s->status, s->winner, hands,
                         seats_tuple(s->cards, s->n), seats_tuple(s->clubs, s->n), seats_tuple(s->konch, s->n),
                         seats_tuple(s->totals, s->n), table, deck, seats_tuple(s->deal_points, s->n),
                         seats_tuple(s->deal_cards, s->n), seats_tuple(s->deal_clubs, s->n));
}

static int read_action(PyObject *obj, KonAction *a) {
    if (!check_tuple(obj, 3, "konchinka action")) return 0;
    long kind, card;
    Mask taken;
    if (!read_long(obj, 0, &kind) || !read_long(obj, 1, &card) || !read_mask(obj, 2, &taken)) return 0;
    a->kind = (int)kind;
    a->card = (int)card;
    a->taken = taken;
    return 1;
}

static int same_action(const KonAction *a, const KonAction *b) {
    return a->kind == b->kind && a->card == b->card && a->taken == b->taken;
}

static KonAction LEGAL[KON_MAX_ACTIONS];

/* the index of ``a`` among the legal actions of ``s``; -1 if it is not one, -2 if the kernel declines */
static int find_legal(const KonState *s, const KonAction *a) {
    int count;
    if (s->status != KON_RUNNING || kon_legal(s, LEGAL, &count) != KON_OK) return -2;
    for (int i = 0; i < count; i++)
        if (same_action(&LEGAL[i], a)) return i;
    return -1;
}

static PyObject *py_konchinka_values(PyObject *self, PyObject *args) {
    PyObject *state, *candidates;
    int me, plies, depth;
    if (!PyArg_ParseTuple(args, "OiO!ii", &state, &me, &PyTuple_Type, &candidates, &plies, &depth)) return NULL;
    KonState root;
    if (!kon_read(state, &root)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(candidates);
    double values[KON_MAX_ACTIONS];
    if (n > KON_MAX_ACTIONS) Py_RETURN_NONE;
    long steps = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        KonAction a;
        if (!read_action(PyTuple_GET_ITEM(candidates, i), &a)) return NULL;
        int at = find_legal(&root, &a);
        if (at == -2) Py_RETURN_NONE;
        if (at == -1) return PyErr_Format(PyExc_ValueError, "candidate %zd is not legal here", i);
        KonState s = root;
        kon_apply(&s, &a);
        steps += 1;
        if (kon_rollout(&s, me, plies, depth, &values[i], &steps) != KON_OK) Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(out, i, PyFloat_FromDouble(values[i]));
    return Py_BuildValue("(Nl)", out, steps);
}

static PyObject *py_konchinka_legal(PyObject *self, PyObject *state) {
    KonState s;
    if (!kon_read(state, &s)) return NULL;
    int count;
    if (s.status != KON_RUNNING || kon_legal(&s, LEGAL, &count) != KON_OK) Py_RETURN_NONE;
    PyObject *out = PyTuple_New(count);
    if (out == NULL) return NULL;
    for (int i = 0; i < count; i++)
        PyTuple_SET_ITEM(out, i, Py_BuildValue("(iiK)", LEGAL[i].kind, LEGAL[i].card, (unsigned long long)LEGAL[i].taken));
    return out;
}

static PyObject *py_konchinka_policy(PyObject *self, PyObject *state) {
    KonState s;
    if (!kon_read(state, &s)) return NULL;
    int count, choice;
    if (s.status != KON_RUNNING || kon_legal(&s, LEGAL, &count) != KON_OK) Py_RETURN_NONE;
    kon_policy(&s, LEGAL, count, &choice);
    return PyLong_FromLong(choice);
}

static PyObject *py_konchinka_value(PyObject *self, PyObject *args) {
    PyObject *state;
    int me;
    if (!PyArg_ParseTuple(args, "Oi", &state, &me)) return NULL;
    KonState s;
    if (!kon_read(state, &s)) return NULL;
    return PyFloat_FromDouble(kon_value(&s, me));
}

static PyObject *py_konchinka_step(PyObject *self, PyObject *args) {
    PyObject *state, *action;
    if (!PyArg_ParseTuple(args, "OO", &state, &action)) return NULL;
    KonState s;
    KonAction a;
    if (!kon_read(state, &s) || !read_action(action, &a)) return NULL;
    int at = find_legal(&s, &a);
    if (at == -2) Py_RETURN_NONE;
    if (at == -1) return PyErr_Format(PyExc_ValueError, "the action is not legal here");
    kon_apply(&s, &a);
    return kon_write(&s);
}

/* ------------------------------------------------------------------------------------------ the module */

static PyMethodDef METHODS[] = {
    {"konchinka_values", py_konchinka_values, METH_VARARGS,
     "konchinka_values(state, me, candidates, plies, depth) -> (values, steps), or None where declined"},
    {"konchinka_legal", py_konchinka_legal, METH_O, "konchinka_legal(state) -> the legal actions, or None"},
    {"konchinka_policy", py_konchinka_policy, METH_O,
     "konchinka_policy(state) -> the index of the normal player's action, or None"},
    {"konchinka_value", py_konchinka_value, METH_VARARGS, "konchinka_value(state, me) -> the hard player's value"},
    {"konchinka_step", py_konchinka_step, METH_VARARGS,
     "konchinka_step(state, action) -> the state after the action, or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "engine.konchinka.ai._kernel", "Кончинка's compiled playout kernel.", -1, METHODS,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    kon_init_tables();
    PyObject *module = PyModule_Create(&MODULE);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "VERSION", 1) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
