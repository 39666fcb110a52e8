/* engine.ai._kernel: the Python face of the playout kernel (see kernel.h and engine/ai/kernel.py).
 *
 * States cross the boundary as flat tuples of ints, built and read by engine/ai/kernel.py:
 *   Кинг:     (hand0, hand1, hand2, hand3, leader, trick_no, contract, trump, forced_on_heart_lead,
 *              stop_when_decided, remaining, points0, points1, points2, points3, over, (trick cards...))
 *   Кончинка: (n, points_variant, multi, forced, early_finish, target, current, dealer, last_capturer, status,
 *              winner, (hands), (cards), (clubs), (konch), (totals), (table), (deck), (deal points),
 *              (deal cards), (deal clubs))
 * Actions of Кончинка are (kind, card, taken mask): kind 0 lay, 1 capture, 2 finish (card -1).
 * A function that meets a Кончинка position the kernel declines returns None.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.h"

/* ------------------------------------------------------------------------------------ reading tuples */

static int read_long(PyObject *tuple, Py_ssize_t i, long *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (item == NULL) return 0;
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) return 0;
    *out = v;
    return 1;
}

static int read_mask(PyObject *tuple, Py_ssize_t i, Mask *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (item == NULL) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return 0;
    *out = (Mask)v;
    return 1;
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t cap, Py_ssize_t *len) {
    if (!PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "expected a tuple");
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (n > cap) {
        PyErr_SetString(PyExc_ValueError, "too many items");
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (!read_long(seq, i, &v)) return 0;
        out[i] = (int)v;
    }
    *len = n;
    return 1;
}

static int check_tuple(PyObject *obj, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd items expected", what, size);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------------- Кинг */

static int king_read(PyObject *t, KingState *s) {
    if (!check_tuple(t, 17, "king state")) return 0;
    long v[16];
    for (int i = 0; i < 4; i++)
        if (!read_mask(t, i, &s->hand[i])) return 0;
    for (int i = 4; i < 16; i++)
        if (!read_long(t, i, &v[i])) return 0;
    s->leader = (int)v[4];
    s->trick_no = (int)v[5];
    s->contract = (int)v[6];
    s->trump = (int)v[7];
    s->forced_on_heart_lead = (int)v[8];
    s->stop_when_decided = (int)v[9];
    s->remaining = (int)v[10];
    for (int p = 0; p < 4; p++) s->points[p] = (int)v[11 + p];
    s->over = (int)v[15];
    Py_ssize_t len;
    if (!read_ints(PyTuple_GET_ITEM(t, 16), s->trick, 3, &len)) return 0;
    s->trick_len = (int)len;
    s->current = (s->leader + s->trick_len) & 3;
    if (s->contract < -1 || s->contract > 6 || s->trump < -1 || s->trump > 3 || s->leader < 0 || s->leader > 3) {
        PyErr_SetString(PyExc_ValueError, "king state: a value out of range");
        return 0;
    }
    return 1;
}

static PyObject *king_write(const KingState *s) {
    PyObject *trick = PyTuple_New(s->trick_len);
    if (trick == NULL) return NULL;
    for (int i = 0; i < s->trick_len; i++) PyTuple_SET_ITEM(trick, i, PyLong_FromLong(s->trick[i]));
    return Py_BuildValue("(KKKKiiiiiiiiiiiiN)", (unsigned long long)s->hand[0], (unsigned long long)s->hand[1],
                         (unsigned long long)s->hand[2], (unsigned long long)s->hand[3], s->leader, s->trick_no,
                         s->contract, s->trump, s->forced_on_heart_lead, s->stop_when_decided, s->remaining,
                         s->points[0], s->points[1], s->points[2], s->points[3], s->over, trick);
}

static PyObject *py_king_values(PyObject *self, PyObject *args) {
    PyObject *state, *candidates;
    int me, depth;
    if (!PyArg_ParseTuple(args, "OiO!i", &state, &me, &PyTuple_Type, &candidates, &depth)) return NULL;
    KingState root;
    if (!king_read(state, &root)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(candidates);
    PyObject *values = PyTuple_New(n);
    if (values == NULL) return NULL;
    long steps = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long card;
        if (!read_long(candidates, i, &card)) {
            Py_DECREF(values);
            return NULL;
        }
        KingState s = root;
        if (card >= 0) {
            if (!(king_legal(&s) & BIT(card))) {
                Py_DECREF(values);
                return PyErr_Format(PyExc_ValueError, "card %ld is not legal here", card);
            }
            king_play(&s, (int)card);
            steps += 1;
        }
        int v = king_rollout(&s, me, depth, &steps);
        PyTuple_SET_ITEM(values, i, PyLong_FromLong(v));
    }
    return Py_BuildValue("(Nl)", values, steps);
}

static PyObject *py_king_surprises(PyObject *self, PyObject *args) {
    PyObject *state, *plays;
    int me;
    if (!PyArg_ParseTuple(args, "OiO!", &state, &me, &PyTuple_Type, &plays)) return NULL;
    KingState s;
    if (!king_read(state, &s)) return NULL;
    int cards[KING_PLAYERS * KING_TRICKS];
    Py_ssize_t len;
    if (!read_ints(plays, cards, KING_PLAYERS * KING_TRICKS, &len)) return NULL;
    return PyLong_FromLong(king_surprises(&s, me, cards, (int)len));
}

static PyObject *py_king_legal(PyObject *self, PyObject *state) {
    KingState s;
    if (!king_read(state, &s)) return NULL;
    return PyLong_FromUnsignedLongLong(king_legal(&s));
}

static PyObject *py_king_policy(PyObject *self, PyObject *state) {
    KingState s;
    if (!king_read(state, &s)) return NULL;
    return PyLong_FromLong(king_policy(&s));
}

static PyObject *py_king_step(PyObject *self, PyObject *args) {
    PyObject *state;
    int card;
    if (!PyArg_ParseTuple(args, "Oi", &state, &card)) return NULL;
    KingState s;
    if (!king_read(state, &s)) return NULL;
    if (card < 0 || card > 51 || !(king_legal(&s) & BIT(card)))
        return PyErr_Format(PyExc_ValueError, "card %d is not legal here", card);
    king_play(&s, card);
    return king_write(&s);
}

/* ------------------------------------------------------------------------------------------ Кончинка */

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
    {"king_values", py_king_values, METH_VARARGS,
     "king_values(state, me, candidate_cards, depth) -> (values, steps): me's deal points after each candidate "
     "(-1: none, roll out from the state) and a rollout of the given depth"},
    {"king_surprises", py_king_surprises, METH_VARARGS,
     "king_surprises(state_at_deal_start, me, played_cards) -> the plays the normal policy would not make"},
    {"king_legal", py_king_legal, METH_O, "king_legal(state) -> the mask of the legal cards"},
    {"king_policy", py_king_policy, METH_O, "king_policy(state) -> the normal player's card"},
    {"king_step", py_king_step, METH_VARARGS, "king_step(state, card) -> the state after the card"},
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
    PyModuleDef_HEAD_INIT, "engine.ai._kernel", "The compiled playout kernel of the bot players.", -1, METHODS,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    king_init_tables();
    kon_init_tables();
    PyObject *module = PyModule_Create(&MODULE);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "VERSION", 1) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
