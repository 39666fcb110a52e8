/* engine.konchinka.ai._kernel: the Python face of Кончинка's playout kernel (see konchinka.h and
 * engine/konchinka/ai/kernel.py).
 *
 * A state crosses the boundary as a flat tuple of ints, built and read by engine/konchinka/ai/kernel.py:
 *   (n, points_variant, multi, forced, early_finish, target, current, dealer, last_capturer, status,
 *    winner, (hands), (cards), (clubs), (konch), (totals), (table), (deck), (deal points),
 *    (deal cards), (deal clubs))
 * Actions are (kind, card, taken mask): kind 0 lay, 1 capture, 2 finish (card -1), 3 capture and finish.
 * A function that meets a position the kernel declines returns None. Every value is checked on its way in
 * (kon_read): a bad one raises ValueError or TypeError, never reaches the kernel.
 */
#include "pytuple.h"

#include "konchinka.h"

enum { POINTS_LIMIT = 100000, MAX_TARGET = 1000, MAX_DEPTH = 3, MAX_PLIES = 10000, TOTAL_DECK = 52 };

static int read_seats(PyObject *t, Py_ssize_t i, int n, long lo, long hi, const char *what, int *out) {
    Py_ssize_t len;
    if (!read_ints_in(PyTuple_GET_ITEM(t, i), out, KON_MAX_PLAYERS, lo, hi, what, &len)) return 0;
    if (len != n) {
        PyErr_Format(PyExc_ValueError, "konchinka state: %s: one number per seat expected", what);
        return 0;
    }
    return 1;
}

static int sum_at_most(const int *values, int n, int top, const char *what) {
    int total = 0;
    for (int p = 0; p < n; p++) total += values[p];
    if (total > top) {
        PyErr_Format(PyExc_ValueError, "konchinka state: %d %s taken, more than the deck holds", total, what);
        return 0;
    }
    return 1;
}

/* A state the kernel can play without reading or writing out of bounds: 2 to 4 seats, every seat number one of
 * them, every card 0..51 in one place only (hands, table, deck), the piles no bigger than the deck, and the
 * status agreeing with the seat to move (a running deal has one, an ended party a winner). */
static int kon_read(PyObject *t, KonState *s) {
    if (!check_tuple(t, 21, "konchinka state")) return 0;
    if (!read_int_in(t, 0, 2, KON_MAX_PLAYERS, "konchinka players", &s->n)) return 0;
    int n = s->n;
    if (!read_int_in(t, 1, 0, 1, "konchinka points_variant", &s->points_variant) ||
        !read_int_in(t, 2, 0, 1, "konchinka multi", &s->multi) || !read_int_in(t, 3, 0, 1, "konchinka forced", &s->forced) ||
        !read_int_in(t, 4, 0, 1, "konchinka early_finish", &s->early_finish) ||
        !read_int_in(t, 5, 1, MAX_TARGET, "konchinka target", &s->target) ||
        !read_int_in(t, 6, -1, n - 1, "konchinka current", &s->current) ||
        !read_int_in(t, 7, 0, n - 1, "konchinka dealer", &s->dealer) ||
        !read_int_in(t, 8, -1, n - 1, "konchinka last capturer", &s->last_capturer) ||
        !read_int_in(t, 9, KON_RUNNING, KON_PARTY_OVER, "konchinka status", &s->status) ||
        !read_int_in(t, 10, -1, n - 1, "konchinka winner", &s->winner))
        return 0;
    if (s->status == KON_RUNNING && s->current < 0) {
        PyErr_SetString(PyExc_ValueError, "konchinka state: a running deal with nobody to move");
        return 0;
    }
    if (s->status == KON_PARTY_OVER && (s->current != -1 || s->winner < 0)) {
        PyErr_SetString(PyExc_ValueError, "konchinka state: an ended party with a seat to move or no winner");
        return 0;
    }
    PyObject *hands = PyTuple_GET_ITEM(t, 11);
    if (!check_tuple(hands, n, "konchinka hands")) return 0;
    Mask seen = 0;
    for (int p = 0; p < n; p++) {
        if (!read_mask(hands, p, &s->hand[p])) return 0;
        if (s->hand[p] & seen) {
            PyErr_SetString(PyExc_ValueError, "konchinka state: a card in two hands");
            return 0;
        }
        seen |= s->hand[p];
    }
    if (!read_seats(t, 12, n, 0, TOTAL_DECK, "cards", s->cards) || !read_seats(t, 13, n, 0, 13, "clubs", s->clubs) ||
        !read_seats(t, 14, n, 0, 2, "konchinki", s->konch) ||
        !read_seats(t, 15, n, -POINTS_LIMIT, POINTS_LIMIT, "totals", s->totals))
        return 0;
    if (!sum_at_most(s->cards, n, TOTAL_DECK, "cards") || !sum_at_most(s->clubs, n, 13, "clubs") ||
        !sum_at_most(s->konch, n, 2, "konchinki"))
        return 0;
    Py_ssize_t len;
    if (!read_ints_in(PyTuple_GET_ITEM(t, 16), s->table, TOTAL_DECK, 0, 51, "konchinka table", &len) ||
        !cards_distinct(s->table, len, &seen, "konchinka table"))
        return 0;
    s->table_len = (int)len;
    if (!read_ints_in(PyTuple_GET_ITEM(t, 17), s->deck, TOTAL_DECK, 0, 51, "konchinka deck", &len) ||
        !cards_distinct(s->deck, len, &seen, "konchinka deck"))
        return 0;
    s->deck_len = (int)len;
    s->deck_pos = 0;
    if (!read_seats(t, 18, n, -POINTS_LIMIT, POINTS_LIMIT, "deal points", s->deal_points) ||
        !read_seats(t, 19, n, 0, TOTAL_DECK, "deal cards", s->deal_cards) ||
        !read_seats(t, 20, n, 0, 13, "deal clubs", s->deal_clubs))
        return 0;
    return 1;
}

static PyObject *kon_write(const KonState *s) {
    PyObject *items[21];
    int n = s->n;
    const int ints[11] = {n, s->points_variant, s->multi, s->forced, s->early_finish, s->target,
                          s->current, s->dealer, s->last_capturer, s->status, s->winner};
    for (int i = 0; i < 11; i++) items[i] = PyLong_FromLong(ints[i]);
    PyObject *hand_items[KON_MAX_PLAYERS];
    for (int p = 0; p < n; p++) hand_items[p] = PyLong_FromUnsignedLongLong(s->hand[p]);
    items[11] = steal_tuple(hand_items, n);
    items[12] = ints_tuple(s->cards, n);
    items[13] = ints_tuple(s->clubs, n);
    items[14] = ints_tuple(s->konch, n);
    items[15] = ints_tuple(s->totals, n);
    items[16] = ints_tuple(s->table, s->table_len);
    items[17] = ints_tuple(s->deck + s->deck_pos, s->deck_len - s->deck_pos);
    items[18] = ints_tuple(s->deal_points, n);
    items[19] = ints_tuple(s->deal_cards, n);
    items[20] = ints_tuple(s->deal_clubs, n);
    return steal_tuple(items, 21);
}

static int read_action(PyObject *obj, KonAction *a) {
    if (!check_tuple(obj, 3, "konchinka action")) return 0;
    return read_int_in(obj, 0, KON_LAY, KON_CAPTURE_FINISH, "konchinka action kind", &a->kind) &&
           read_int_in(obj, 1, -1, 51, "konchinka action card", &a->card) && read_mask(obj, 2, &a->taken);
}

static int same_action(const KonAction *a, const KonAction *b) {
    return a->kind == b->kind && a->card == b->card && a->taken == b->taken;
}

static PyObject *action_tuple(const KonAction *a) {
    PyObject *items[3] = {PyLong_FromLong(a->kind), PyLong_FromLong(a->card), PyLong_FromUnsignedLongLong(a->taken)};
    return steal_tuple(items, 3);
}

/* One call's working memory (see KonScratch), on the heap: the actions are too many for a thread's stack. */
typedef struct {
    KonScratch *scratch;
    KonAction *legal;
    KonAction *candidates;
    double *values;
} Work;

static void work_free(Work *w) {
    kon_scratch_free(w->scratch);
    PyMem_RawFree(w->legal);
    PyMem_RawFree(w->candidates);
    PyMem_RawFree(w->values);
}

static int work_new(Work *w, int with_candidates) {
    w->scratch = kon_scratch_new();
    w->legal = PyMem_RawMalloc(sizeof(KonAction) * KON_MAX_ACTIONS);
    w->candidates = with_candidates ? PyMem_RawMalloc(sizeof(KonAction) * KON_MAX_ACTIONS) : NULL;
    w->values = with_candidates ? PyMem_RawMalloc(sizeof(double) * KON_MAX_ACTIONS) : NULL;
    if (w->scratch == NULL || w->legal == NULL || (with_candidates && (w->candidates == NULL || w->values == NULL))) {
        work_free(w);
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

/* the index of ``a`` among the legal actions of ``s``; -1 if it is not one, -2 if the kernel declines */
static int find_legal(const KonState *s, Work *w, const KonAction *a) {
    int count;
    if (s->status != KON_RUNNING || kon_legal(s, w->scratch, w->legal, &count) != KON_OK) return -2;
    for (int i = 0; i < count; i++)
        if (same_action(&w->legal[i], a)) return i;
    return -1;
}

static int read_me(int me, int n) {
    if (me < 0 || me >= n) {
        PyErr_Format(PyExc_ValueError, "konchinka: no seat %d at a table of %d", me, n);
        return 0;
    }
    return 1;
}

static PyObject *py_konchinka_values(PyObject *self, PyObject *args) {
    PyObject *state, *candidates;
    int me, plies, depth;
    if (!PyArg_ParseTuple(args, "OiO!ii", &state, &me, &PyTuple_Type, &candidates, &plies, &depth)) return NULL;
    KonState root;
    if (!kon_read(state, &root) || !read_me(me, root.n)) return NULL;
    if (plies < -1 || plies > MAX_PLIES || depth < 0 || depth > MAX_DEPTH)
        return PyErr_Format(PyExc_ValueError, "konchinka: plies %d or depth %d out of range", plies, depth);
    Py_ssize_t n = PyTuple_GET_SIZE(candidates);
    if (n > KON_MAX_ACTIONS) Py_RETURN_NONE;
    Work w;
    if (!work_new(&w, 1)) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!read_action(PyTuple_GET_ITEM(candidates, i), &w.candidates[i])) {
            work_free(&w);
            return NULL;
        }
    }
    /* the search runs on C memory only, without the GIL: other threads (the bot's event loop) go on */
    long steps = 0;
    int declined = 0;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int at = find_legal(&root, &w, &w.candidates[i]);
        if (at == -2) {
            declined = 1;
            break;
        }
        if (at == -1) {
            bad = i;
            break;
        }
        KonState s = root;
        kon_apply(&s, &w.candidates[i]);
        steps += 1;
        if (kon_rollout(&s, w.scratch, me, plies, depth, &w.values[i], &steps) != KON_OK) {
            declined = 1;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "candidate %zd is not legal here", bad);
    } else if (declined) {
        result = Py_NewRef(Py_None);
    } else {
        PyObject *out = PyTuple_New(n);
        if (out != NULL) {
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *v = PyFloat_FromDouble(w.values[i]);
                if (v == NULL) {
                    Py_CLEAR(out);
                    break;
                }
                PyTuple_SET_ITEM(out, i, v);
            }
        }
        PyObject *items[2] = {out, PyLong_FromLong(steps)};
        result = steal_tuple(items, 2);
    }
    work_free(&w);
    return result;
}

static PyObject *py_konchinka_legal(PyObject *self, PyObject *state) {
    KonState s;
    if (!kon_read(state, &s)) return NULL;
    Work w;
    if (!work_new(&w, 0)) return NULL;
    int count;
    PyObject *out = NULL;
    if (s.status != KON_RUNNING || kon_legal(&s, w.scratch, w.legal, &count) != KON_OK) {
        out = Py_NewRef(Py_None);
    } else if ((out = PyTuple_New(count)) != NULL) {
        for (int i = 0; i < count; i++) {
            PyObject *a = action_tuple(&w.legal[i]);
            if (a == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyTuple_SET_ITEM(out, i, a);
        }
    }
    work_free(&w);
    return out;
}

static PyObject *py_konchinka_policy(PyObject *self, PyObject *state) {
    KonState s;
    if (!kon_read(state, &s)) return NULL;
    Work w;
    if (!work_new(&w, 0)) return NULL;
    int count, choice = -1;
    int ok = s.status == KON_RUNNING && kon_legal(&s, w.scratch, w.legal, &count) == KON_OK &&
             kon_policy(&s, w.legal, count, &choice) == KON_OK;
    work_free(&w);
    if (!ok) Py_RETURN_NONE;
    return PyLong_FromLong(choice);
}

static PyObject *py_konchinka_value(PyObject *self, PyObject *args) {
    PyObject *state;
    int me;
    if (!PyArg_ParseTuple(args, "Oi", &state, &me)) return NULL;
    KonState s;
    if (!kon_read(state, &s) || !read_me(me, s.n)) return NULL;
    return PyFloat_FromDouble(kon_value(&s, me));
}

static PyObject *py_konchinka_step(PyObject *self, PyObject *args) {
    PyObject *state, *action;
    if (!PyArg_ParseTuple(args, "OO", &state, &action)) return NULL;
    KonState s;
    KonAction a;
    if (!kon_read(state, &s) || !read_action(action, &a)) return NULL;
    Work w;
    if (!work_new(&w, 0)) return NULL;
    int at = find_legal(&s, &w, &a);
    work_free(&w);
    if (at == -2) Py_RETURN_NONE;
    if (at == -1) return PyErr_Format(PyExc_ValueError, "the action is not legal here");
    kon_apply(&s, &a);
    return kon_write(&s);
}

/* kernel.RoundReplay.surprises: the round's plays replayed from its start in one world; a play of another player
 * who had a choice and whose normal policy picks another action counts once; a play not legal there counts as
 * every play; None where the kernel declines a state on the way (Python then replays the round) */
static PyObject *py_konchinka_surprises(PyObject *self, PyObject *args) {
    PyObject *state, *plays;
    if (!PyArg_ParseTuple(args, "OO!", &state, &PyTuple_Type, &plays)) return NULL;
    KonState s;
    if (!kon_read(state, &s)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(plays);
    int *other = PyMem_Malloc(sizeof(int) * (size_t)(n ? n : 1));
    KonAction *actions = PyMem_Malloc(sizeof(KonAction) * (size_t)(n ? n : 1));
    if (other == NULL || actions == NULL) {
        PyMem_Free(other);
        PyMem_Free(actions);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *play = PyTuple_GET_ITEM(plays, i);
        if (!check_tuple(play, 2, "konchinka play") || !read_int_in(play, 0, 0, 1, "konchinka play by another", &other[i]) ||
            !read_action(PyTuple_GET_ITEM(play, 1), &actions[i])) {
            PyMem_Free(other);
            PyMem_Free(actions);
            return NULL;
        }
    }
    Work w;
    if (!work_new(&w, 0)) {
        PyMem_Free(other);
        PyMem_Free(actions);
        return NULL;
    }
    long count = 0;
    int declined = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int legal_count, choice = -1, at = -1;
        if (s.status != KON_RUNNING || kon_legal(&s, w.scratch, w.legal, &legal_count) != KON_OK) {
            declined = 1;
            break;
        }
        for (int k = 0; k < legal_count && at < 0; k++)
            if (same_action(&w.legal[k], &actions[i])) at = k;
        if (at < 0) {
            count = (long)n;
            break;
        }
        if (other[i] && legal_count > 1) {
            if (kon_policy(&s, w.legal, legal_count, &choice) != KON_OK) {
                declined = 1;
                break;
            }
            count += !same_action(&w.legal[choice], &actions[i]);
        }
        kon_apply(&s, &actions[i]);
    }
    Py_END_ALLOW_THREADS
    work_free(&w);
    PyMem_Free(other);
    PyMem_Free(actions);
    if (declined) Py_RETURN_NONE;
    return PyLong_FromLong(count);
}

/* ------------------------------------------------------------------------------------------ the module */

static PyMethodDef METHODS[] = {
    {"konchinka_values", py_konchinka_values, METH_VARARGS,
     "konchinka_values(state, me, candidates, plies, depth) -> (values, steps), or None where declined"},
    {"konchinka_legal", py_konchinka_legal, METH_O, "konchinka_legal(state) -> the legal actions, or None"},
    {"konchinka_policy", py_konchinka_policy, METH_O,
     "konchinka_policy(state) -> the index of the normal player's action, or None"},
    {"konchinka_surprises", py_konchinka_surprises, METH_VARARGS,
     "konchinka_surprises(state_at_round_start, plays) -> the plays of others (each (by_another, action)) the normal "
     "policy would not make, or None where declined"},
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
