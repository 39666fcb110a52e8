"""People's decisions: looking at a game again (a hand, the table, the score sheet, the history), leaving a seat to
a bot player, and the bot told it may not write to someone. Each is a pure function of the command and one game;
where a command concerns several games (every running game of a person), the pipeline finds them and asks for
each."""

from __future__ import annotations

from bot.flow.commands import Decided, Decision, FlowConfig, Refusal, SendHistory, ShowHand
from bot.flow.moves import deadline_of
from bot.model.answers import Answer
from bot.model.game import (
    Blocked,
    Event,
    Game,
    GameMode,
    GameStatus,
    HandAsked,
    HistoryAsked,
    SeatLeft,
    SheetAsked,
    StartBotFirst,
    TableAsked,
    TableCopyAsked,
    evolve,
)


def show_hand(command: ShowHand, game: Game) -> Decision:
    """«🃏 Мои карты» (``/start g_<game>``): the player's live message sent anew at the bottom of the chat (the old
    one may have been deleted by the player, and edits of it would go nowhere)."""
    if not game.status.is_active:
        return Refusal(Answer.NO_GAME)
    if game.seat_of(command.person.user_id) is None:
        return Refusal(Answer.NOT_A_PLAYER)
    if game.status is not GameStatus.PLAYING:
        return Decided()
    return Decided((HandAsked(command.person.user_id),))


def hand_back(game: Game, user_id: int) -> Decision:
    """A running game's hand anew below (/start, /play, /score in private)."""
    return Decided((HandAsked(user_id),))


def back_after_blocking(game: Game, user_id: int, *, was_blocked: bool, started: bool) -> Decision:
    """A person seen again (``/start``): if they had blocked the bot and opened it again, each of their games shows
    them their message anew (what the bot could not send them meanwhile)."""
    if not (started and was_blocked) or game.seat_of(user_id) is None:
        return Decided()
    return Decided((HandAsked(user_id),))


def played(game: Game, user_id: int) -> Refusal | None:
    """Why ``user_id`` may not look at ``game``'s party (one they play or played in), if they may not."""
    if game.seat_of(user_id) is None:
        return Refusal(Answer.NOT_A_PLAYER)
    if game.party is None or game.status not in (GameStatus.PLAYING, GameStatus.FINISHED):
        return Refusal(Answer.NO_GAME)
    return None


def show_table(game: Game, user_id: int) -> Decision:
    """«📋 Стол»: the whole table of a game, privately, to a player of it — one copy, sent anew below."""
    return played(game, user_id) or Decided((TableCopyAsked(user_id),))


def show_sheet(game: Game, user_id: int, chat_id: int, thread_id: int, *, pressed: bool) -> Decision:
    """The score sheet's picture anew below in ``chat_id``: of a game one plays (asked in private), of the game a
    group's button names (``pressed``: drawn in the game's own chats only), or the group's game — whose lobby is
    shown anew instead, while there is no party."""
    if chat_id == user_id:
        return played(game, user_id) or Decided((SheetAsked(chat_id, thread_id),))
    if game.party is None:
        if pressed:
            return Refusal(Answer.NO_GAME)
        return Decided((TableAsked(),))
    if game.chat_id != chat_id:
        return Refusal(Answer.UNKNOWN)  # a forged press
    return Decided((SheetAsked(chat_id, thread_id),))


def send_history(command: SendHistory, game: Game) -> Decision:
    """«📜 История»: the finished party as a text file, in the chat whose button was pressed."""
    if game.party is None or game.status is not GameStatus.FINISHED:
        return Refusal(Answer.NO_GAME)
    person = command.person.user_id
    in_own_chat = command.chat_id == person and game.seat_of(person) is not None
    if command.chat_id != game.chat_id and not in_own_chat:
        return Refusal(Answer.UNKNOWN)  # the button is drawn in the party's chats only: a forged press
    return Decided((HistoryAsked(command.chat_id, command.thread_id),))


def repost(game: Game) -> Decision:
    """``/score text`` in a group: the table message again at the bottom of the chat."""
    return Decided((TableAsked(),))


def leaving(games: list[Game], *, in_private: bool) -> list[Game] | Refusal:
    """The games whose seat ``/leave`` hands over: in private each group game the person plays (a game with bots
    has no seat to hand over), in a group its game being played."""
    found = [g for g in games if g.status is GameStatus.PLAYING]
    if in_private:
        groups = [g for g in found if g.mode is GameMode.GROUP]
        if not groups and found:
            return Refusal(Answer.SOLO_LEAVE)
        found = groups
    return found or Refusal(Answer.NO_GAME)


def leave(game: Game, user_id: int, now: float, config: FlowConfig) -> Decision:
    """/leave: the person's seat goes to a bot player; the group is told, and the person gets the button that
    brings them back."""
    seat = game.seat_of(user_id)
    if seat is None or game.status is not GameStatus.PLAYING:
        return Refusal(Answer.NOT_A_PLAYER)
    if seat.replaced:
        return Refusal(Answer.ALREADY_LEFT)
    events: list[Event] = [SeatLeft(seat.seat)]
    # the bot player moves for them now; another person's turn keeps the time it has (and its reminder)
    if game.mover is not None and game.mover.seat == seat.seat:
        events += deadline_of(evolve(game, events), now, config)
    return Decided(tuple(events))


def blocked(game: Game, user_id: int, now: float, config: FlowConfig) -> Decision:
    """The bot may not write to this person: their group games say so, and their turns get a time limit so they
    never hold a game up."""
    events: list[Event] = [Blocked(user_id)]
    seat = game.seat_of(user_id)
    if game.mode is GameMode.GROUP and seat is not None and game.status.is_active:
        events.append(StartBotFirst(seat.seat))
        if game.status is GameStatus.PLAYING and game.deadline is None:
            events += deadline_of(evolve(game, events), now, config)
    return Decided(tuple(events))
