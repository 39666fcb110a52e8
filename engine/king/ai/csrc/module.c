/* engine.king.ai._kernel: the Python face of Кинг's playout kernel (see king.h and engine/king/ai/kernel.py).
 *
 * A state crosses the boundary as a flat tuple of ints, built and read by engine/king/ai/kernel.py:
 *   (hand0, hand1, hand2, hand3, leader, trick_no, contract, trump, forced_on_heart_lead,
 *    stop_when_decided, remaining, points0, points1, points2, points3, over, (trick cards...))
 */
#include <math.h>

#include "pytuple.h"

#include "deal.h"
#include "king.h"

enum { POINTS_LIMIT = 100000, MAX_DEPTH = 4, MAX_CANDIDATES = 64 };

/* A state the kernel can play without reading or writing out of bounds: cards 0..51 each in one place, seats
 * 0..3, the trick of at most three cards, and, in a deal still running, every hand of the size its seat's
 * plays leave (so the player to move always holds a card). */
static int king_read_hands(PyObject *t, KingState *s, int sized);

static int king_read(PyObject *t, KingState *s) { return king_read_hands(t, s, 1); }

/* ``sized`` 0: the hands may hold fewer cards than the deal gives (the cards known at a deal's start) */
static int king_read_hands(PyObject *t, KingState *s, int sized) {
    if (!check_tuple(t, 17, "king state")) return 0;
    Mask seen = 0;
    for (int i = 0; i < 4; i++) {
        if (!read_mask(t, i, &s->hand[i])) return 0;
        if (s->hand[i] & seen) {
            PyErr_SetString(PyExc_ValueError, "king state: a card in two hands");
            return 0;
        }
        seen |= s->hand[i];
    }
    if (!read_int_in(t, 4, 0, 3, "king leader", &s->leader) ||
        !read_int_in(t, 5, 0, KING_TRICKS, "king trick number", &s->trick_no) ||
        !read_int_in(t, 6, -1, 6, "king contract", &s->contract) || !read_int_in(t, 7, -1, 3, "king trump", &s->trump) ||
        !read_int_in(t, 8, 0, 1, "king forced_on_heart_lead", &s->forced_on_heart_lead) ||
        !read_int_in(t, 9, 0, 1, "king stop_when_decided", &s->stop_when_decided) ||
        !read_int_in(t, 10, -POINTS_LIMIT, POINTS_LIMIT, "king remaining", &s->remaining))
        return 0;
    for (int p = 0; p < 4; p++)
        if (!read_int_in(t, 11 + p, -POINTS_LIMIT, POINTS_LIMIT, "king points", &s->points[p])) return 0;
    if (!read_int_in(t, 15, 0, 1, "king over", &s->over)) return 0;
    Py_ssize_t len;
    if (!read_ints_in(PyTuple_GET_ITEM(t, 16), s->trick, KING_PLAYERS - 1, 0, 51, "king trick", &len)) return 0;
    if (!cards_distinct(s->trick, len, &seen, "king trick")) return 0;
    s->trick_len = (int)len;
    s->current = (s->leader + s->trick_len) & 3;
    if (s->over) {
        if (s->trick_len) {
            PyErr_SetString(PyExc_ValueError, "king state: a deal over in the middle of a trick");
            return 0;
        }
        return 1;
    }
    if (s->trick_no >= KING_TRICKS) {
        PyErr_SetString(PyExc_ValueError, "king state: every trick played but the deal not over");
        return 0;
    }
    for (int p = 0; p < KING_PLAYERS && sized; p++) {
        int played = ((p - s->leader) & 3) < s->trick_len;
        if (POPCOUNT(s->hand[p]) != KING_TRICKS - s->trick_no - played) {
            PyErr_Format(PyExc_ValueError, "king state: seat %d holds %d cards, not %d", p, POPCOUNT(s->hand[p]),
                         KING_TRICKS - s->trick_no - played);
            return 0;
        }
    }
    return 1;
}

static PyObject *king_write(const KingState *s) {
    PyObject *items[17];
    for (int i = 0; i < 4; i++) items[i] = PyLong_FromUnsignedLongLong(s->hand[i]);
    const int ints[11] = {s->leader, s->trick_no, s->contract, s->trump, s->forced_on_heart_lead, s->stop_when_decided,
                          s->remaining, s->points[0], s->points[1], s->points[2], s->points[3]};
    for (int i = 0; i < 11; i++) items[4 + i] = PyLong_FromLong(ints[i]);
    items[15] = PyLong_FromLong(s->over);
    items[16] = ints_tuple(s->trick, s->trick_len);
    return steal_tuple(items, 17);
}

static int read_me(int me) {
    if (me < 0 || me >= KING_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "king: no seat %d", me);
        return 0;
    }
    return 1;
}

static PyObject *py_king_values(PyObject *self, PyObject *args) {
    PyObject *state, *candidates;
    int me, depth;
    if (!PyArg_ParseTuple(args, "OiO!i", &state, &me, &PyTuple_Type, &candidates, &depth)) return NULL;
    KingState root;
    if (!king_read(state, &root) || !read_me(me)) return NULL;
    if (depth < 0 || depth > MAX_DEPTH) return PyErr_Format(PyExc_ValueError, "king: depth %d is not 0..%d", depth, MAX_DEPTH);
    int cards[MAX_CANDIDATES], values[MAX_CANDIDATES];
    Py_ssize_t n;
    if (!read_ints_in(candidates, cards, MAX_CANDIDATES, -1, 51, "king candidates", &n)) return NULL;
    /* the search runs on C memory only, without the GIL: other threads (the bot's event loop) go on */
    long steps = 0;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        KingState s = root;
        if (cards[i] >= 0) {
            if (s.over || !(king_legal(&s) & BIT(cards[i]))) {
                bad = i;
                break;
            }
            king_play(&s, cards[i]);
            steps += 1;
        }
        values[i] = king_rollout(&s, me, depth, &steps);
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0) return PyErr_Format(PyExc_ValueError, "card %d is not legal here", cards[bad]);
    PyObject *items[2] = {ints_tuple(values, n), PyLong_FromLong(steps)};
    return steal_tuple(items, 2);
}

static PyObject *py_king_surprises(PyObject *self, PyObject *args) {
    PyObject *state, *plays;
    int me;
    if (!PyArg_ParseTuple(args, "OiO!", &state, &me, &PyTuple_Type, &plays)) return NULL;
    KingState s;
    if (!king_read(state, &s) || !read_me(me)) return NULL;
    int cards[KING_PLAYERS * KING_TRICKS];
    Py_ssize_t len;
    if (!read_ints_in(plays, cards, KING_PLAYERS * KING_TRICKS, 0, 51, "king plays", &len)) return NULL;
    int count;
    Py_BEGIN_ALLOW_THREADS
    count = king_surprises(&s, me, cards, (int)len);
    Py_END_ALLOW_THREADS
    if (count < 0) return PyErr_Format(PyExc_ValueError, "king plays: play %d is not legal there", -count - 1);
    return PyLong_FromLong(count);
}

static PyObject *py_king_rank(PyObject *self, PyObject *args) {
    PyObject *state;
    int card;
    if (!PyArg_ParseTuple(args, "Oi", &state, &card)) return NULL;
    KingState s;
    if (!king_read(state, &s)) return NULL;
    Mask legal = s.over ? 0 : king_legal(&s);
    if (card < 0 || card > 51 || !(legal & BIT(card))) return PyErr_Format(PyExc_ValueError, "card %d is not legal here", card);
    return PyLong_FromLong(king_play_rank(&s, legal, card));
}

static PyObject *py_king_legal(PyObject *self, PyObject *state) {
    KingState s;
    if (!king_read(state, &s)) return NULL;
    return PyLong_FromUnsignedLongLong(s.over ? 0 : king_legal(&s));
}

static PyObject *py_king_policy(PyObject *self, PyObject *state) {
    KingState s;
    if (!king_read(state, &s)) return NULL;
    if (s.over) return PyErr_Format(PyExc_ValueError, "king: the deal is over");
    return PyLong_FromLong(king_policy(&s));
}

static PyObject *py_king_step(PyObject *self, PyObject *args) {
    PyObject *state;
    int card;
    if (!PyArg_ParseTuple(args, "Oi", &state, &card)) return NULL;
    KingState s;
    if (!king_read(state, &s)) return NULL;
    if (s.over || card < 0 || card > 51 || !(king_legal(&s) & BIT(card)))
        return PyErr_Format(PyExc_ValueError, "card %d is not legal here", card);
    king_play(&s, card);
    return king_write(&s);
}

/* ------------------------------------------------------------------------- the hidden hands of a world */

static const char DEAL_CAPSULE[] = "engine.king.ai._kernel.DealTable";

static void deal_capsule_free(PyObject *capsule) {
    DealTable *t = PyCapsule_GetPointer(capsule, DEAL_CAPSULE);
    if (t == NULL) return;
    deal_free(t);
    PyMem_Free(t);
}

static PyObject *py_deal_table(PyObject *self, PyObject *args) {
    PyObject *cards_t, *sizes_t, *allowed_t, *unlikely_t;
    double odds;
    if (!PyArg_ParseTuple(args, "OO!O!O!d", &cards_t, &PyTuple_Type, &sizes_t, &PyTuple_Type, &allowed_t,
                          &PyTuple_Type, &unlikely_t, &odds))
        return NULL;
    Mask cards;
    PyObject *wrapped = PyTuple_Pack(1, cards_t);
    if (wrapped == NULL) return NULL;
    int ok = read_mask(wrapped, 0, &cards);
    Py_DECREF(wrapped);
    if (!ok) return NULL;
    int sizes[DEAL_MAX_SEATS];
    Py_ssize_t seats;
    if (!read_ints_in(sizes_t, sizes, DEAL_MAX_SEATS, 0, DEAL_MAX_SIZE, "deal sizes", &seats)) return NULL;
    if (seats < 1 || PyTuple_GET_SIZE(allowed_t) != seats || PyTuple_GET_SIZE(unlikely_t) != seats)
        return PyErr_Format(PyExc_ValueError, "deal: 1..%d seats, each with its allowed and unlikely cards",
                            DEAL_MAX_SEATS);
    if (POPCOUNT(cards) > DEAL_MAX_CARDS)
        return PyErr_Format(PyExc_ValueError, "deal: at most %d cards", DEAL_MAX_CARDS);
    if (!(odds >= 0.0 && odds <= 1.0)) return PyErr_Format(PyExc_ValueError, "deal: odds must be in [0, 1]");
    Mask allowed[DEAL_MAX_SEATS], unlikely[DEAL_MAX_SEATS];
    for (Py_ssize_t p = 0; p < seats; p++)
        if (!read_mask(allowed_t, p, &allowed[p]) || !read_mask(unlikely_t, p, &unlikely[p])) return NULL;
    DealTable *t = PyMem_Malloc(sizeof(DealTable));
    if (t == NULL) return PyErr_NoMemory();
    if (!deal_build(t, cards, sizes, (int)seats, allowed, unlikely, odds)) {
        PyMem_Free(t);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(t, DEAL_CAPSULE, deal_capsule_free);
    if (capsule == NULL) {
        deal_free(t);
        PyMem_Free(t);
    }
    return capsule;
}

static PyObject *py_deal_total(PyObject *self, PyObject *capsule) {
    DealTable *t = PyCapsule_GetPointer(capsule, DEAL_CAPSULE);
    if (t == NULL) return NULL;
    return PyFloat_FromDouble(deal_total(t));
}

static PyObject *py_deal(PyObject *self, PyObject *args) {
    PyObject *capsule;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OK", &capsule, &seed)) return NULL;
    DealTable *t = PyCapsule_GetPointer(capsule, DEAL_CAPSULE);
    if (t == NULL) return NULL;
    Mask hands[DEAL_MAX_SEATS];
    if (!deal_draw(t, (uint64_t)seed, hands)) Py_RETURN_NONE;
    PyObject *items[DEAL_MAX_SEATS];
    for (int p = 0; p < t->seats; p++) items[p] = PyLong_FromUnsignedLongLong(hands[p]);
    return steal_tuple(items, t->seats);
}

/* --------------------------------------------------------------- the candidate worlds read by the play */

enum { SCREEN_MAX_CANDIDATES = 1024 };

/* One candidate world at the deal's start: the known cards, the dealt ones and the fixed ones; 0 when the hands
 * are not the deal's eight cards each or a card is in two of them (no exception set: called without the GIL). */
static int screen_world(const KingState *start, const DealTable *t, const int *seats, const Mask *fixed,
                        const Mask *dealt, KingState *world) {
    *world = *start;
    Mask seen = 0;
    for (int i = 0; i < t->seats; i++) world->hand[seats[i]] |= dealt[i] | fixed[seats[i]];
    for (int p = 0; p < KING_PLAYERS; p++) {
        if (POPCOUNT(world->hand[p]) != KING_TRICKS || (world->hand[p] & seen)) return 0;
        seen |= world->hand[p];
    }
    return 1;
}

/* king_worlds.screen: of ``candidates`` worlds dealt from the table (each from the next SplitMix64 value of
 * ``seed``), the strict reading (temperature 0) keeps the first in which the normal policy makes every play of the
 * others, else the first of the fewest surprises; the graded reading keeps one with odds proportional to its
 * likelihood under the policy made stochastic at that temperature (king_play_loglik). Returns the kept world's
 * dealt hands (masks, in the table's seat order), or None when no deal fits. */
static PyObject *py_king_screen(PyObject *self, PyObject *args) {
    PyObject *capsule, *seats_t, *fixed_t, *start_t, *plays_t;
    unsigned long long seed;
    int me, candidates;
    double temperature;
    if (!PyArg_ParseTuple(args, "OKO!O!OiO!id", &capsule, &seed, &PyTuple_Type, &seats_t, &PyTuple_Type, &fixed_t,
                          &start_t, &me, &PyTuple_Type, &plays_t, &candidates, &temperature))
        return NULL;
    DealTable *t = PyCapsule_GetPointer(capsule, DEAL_CAPSULE);
    if (t == NULL) return NULL;
    KingState start;
    if (!king_read_hands(start_t, &start, 0) || !read_me(me)) return NULL;
    int seats[DEAL_MAX_SEATS];
    Py_ssize_t n_seats;
    if (!read_ints_in(seats_t, seats, DEAL_MAX_SEATS, 0, KING_PLAYERS - 1, "king screen seats", &n_seats)) return NULL;
    if (n_seats != t->seats) return PyErr_Format(PyExc_ValueError, "king screen: %d seats expected", t->seats);
    if (!check_tuple(fixed_t, KING_PLAYERS, "king screen fixed")) return NULL;
    Mask fixed[KING_PLAYERS];
    for (int p = 0; p < KING_PLAYERS; p++)
        if (!read_mask(fixed_t, p, &fixed[p])) return NULL;
    int plays[KING_PLAYERS * KING_TRICKS];
    Py_ssize_t n_plays;
    if (!read_ints_in(plays_t, plays, KING_PLAYERS * KING_TRICKS, 0, 51, "king plays", &n_plays)) return NULL;
    if (candidates < 1 || candidates > SCREEN_MAX_CANDIDATES)
        return PyErr_Format(PyExc_ValueError, "king screen: 1..%d candidates", SCREEN_MAX_CANDIDATES);
    if (!(temperature >= 0.0)) return PyErr_Format(PyExc_ValueError, "king screen: a temperature of 0 or more");
    int strict = temperature == 0.0;
    double beta = strict ? 0.0 : 1.0 / temperature, lognorm[KING_TRICKS + 1] = {0.0};
    for (int n = 1; n <= KING_TRICKS; n++) {
        double total = 0.0;
        for (int k = 0; k < n; k++) total += exp(-(double)k * beta);
        lognorm[n] = log(total);
    }
    Mask(*dealt)[DEAL_MAX_SEATS] = PyMem_Malloc(sizeof(Mask[DEAL_MAX_SEATS]) * (size_t)candidates);
    double *score = PyMem_Malloc(sizeof(double) * (size_t)candidates);
    if (dealt == NULL || score == NULL) {
        PyMem_Free(dealt);
        PyMem_Free(score);
        return PyErr_NoMemory();
    }
    uint64_t state = seed;
    int kept = -1, dealt_count = 0, fits = 1, whole = 1;
    /* on C memory only, without the GIL (the table lives as long as the capsule this call holds) */
    Py_BEGIN_ALLOW_THREADS
    for (int k = 0; k < candidates; k++) {
        uint64_t world_seed = deal_splitmix64(&state);
        if (!deal_draw(t, world_seed, dealt[k])) {
            fits = 0;
            break;
        }
        dealt_count = k + 1;
        KingState world;
        if (!screen_world(&start, t, seats, fixed, dealt[k], &world)) {
            whole = 0;
            break;
        }
        if (strict) {
            int found = king_surprises(&world, me, plays, (int)n_plays);
            score[k] = found < 0 ? INFINITY : (double)found; /* a play not legal in the world: the worst */
            if (kept < 0 || score[k] < score[kept]) kept = k;
            if (score[k] == 0.0) break;
        } else {
            score[k] = king_play_loglik(&world, me, plays, (int)n_plays, beta, lognorm);
        }
    }
    if (whole && fits && !strict) {
        double top = -INFINITY, total = 0.0;
        for (int k = 0; k < dealt_count; k++)
            if (score[k] > top) top = score[k];
        kept = 0;
        if (top > -INFINITY) {
            for (int k = 0; k < dealt_count; k++) total += score[k] = exp(score[k] - top);
            double pick = (double)(deal_splitmix64(&state) >> 11) * (1.0 / 9007199254740992.0) * total;
            for (int k = 0; k < dealt_count; k++) {
                if (score[k] > 0.0) {
                    kept = k;
                    pick -= score[k];
                    if (pick < 0.0) break;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out;
    if (!whole) {
        PyErr_SetString(PyExc_ValueError, "king screen: the dealt world is not four hands of eight cards");
        out = NULL;
    } else if (!fits) {
        out = Py_None;
        Py_INCREF(out);
    } else {
        PyObject *items[DEAL_MAX_SEATS];
        for (int i = 0; i < t->seats; i++) items[i] = PyLong_FromUnsignedLongLong(dealt[kept][i]);
        out = steal_tuple(items, t->seats);
    }
    PyMem_Free(dealt);
    PyMem_Free(score);
    return out;
}

/* ------------------------------------------------------------------------------------------ the module */

static PyMethodDef METHODS[] = {
    {"king_values", py_king_values, METH_VARARGS,
     "king_values(state, me, candidate_cards, depth) -> (values, steps): me's deal points after each candidate "
     "(-1: none, roll out from the state) and a rollout of the given depth"},
    {"king_surprises", py_king_surprises, METH_VARARGS,
     "king_surprises(state_at_deal_start, me, played_cards) -> the plays the normal policy would not make"},
    {"king_screen", py_king_screen, METH_VARARGS,
     "king_screen(table, seed, seats, fixed, start, me, plays, candidates, temperature) -> the dealt hands of the "
     "candidate world kept by the reading of the play (temperature 0: the strict reading), or None: no deal fits"},
    {"king_rank", py_king_rank, METH_VARARGS,
     "king_rank(state, card) -> the place of the legal card in the normal player's order of preference (0: its "
     "choice)"},
    {"king_legal", py_king_legal, METH_O, "king_legal(state) -> the mask of the legal cards"},
    {"king_policy", py_king_policy, METH_O, "king_policy(state) -> the normal player's card"},
    {"king_step", py_king_step, METH_VARARGS, "king_step(state, card) -> the state after the card"},
    {"deal_table", py_deal_table, METH_VARARGS,
     "deal_table(cards, sizes, allowed, unlikely, odds) -> the counted deals of the hidden cards (a capsule; "
     "engine.ai.deal.DealTable)"},
    {"deal_total", py_deal_total, METH_O, "deal_total(table) -> the weight of every deal (0: none fits)"},
    {"deal", py_deal, METH_VARARGS, "deal(table, seed) -> each seat's cards (masks), or None: no deal fits"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "engine.king.ai._kernel", "Кинг's compiled playout kernel.", -1, METHODS,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    king_init_tables();
    PyObject *module = PyModule_Create(&MODULE);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "VERSION", 1) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
