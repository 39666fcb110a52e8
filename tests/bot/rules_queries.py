"""What people ask about the rules at a table, and the section that answers it.

Written before the ranking was tuned, the way players type into a chat: questions more than keywords, colloquial
words («скока», «крести», «скидывать»), missing «ё», typos. The tests (test_rules_questions.py) and the
measurement script (scripts/rules_hit_rate.py) read these tables; nothing in the ranking refers to them. The
sections are named by their ids (the ones the games' rules books give them), written out here so that the script can
measure an older checkout on the same tables.
"""

from __future__ import annotations

from typing import Final, TypeAlias

Section: TypeAlias = str
"""A section's id."""


class K:
    """Кончинка's sections."""

    BASICS: Final = "k"
    CAPTURES: Final = "kc"
    POINTS: Final = "kp"
    SCORING: Final = "ks"
    TALLY: Final = "kt"
    EARLY_FINISH: Final = "kf"
    OPTIONS: Final = "ko"


class G:
    """Кинг's sections."""

    BASICS: Final = "g"
    NEGATIVE: Final = "gn"
    TRUMP: Final = "gt"
    SCORING: Final = "gs"


QUESTIONS: Final[tuple[tuple[str, Section], ...]] = (
    # Кончинка: dealing and moves
    ("сколько карт раздают в кончинке", K.BASICS),
    ("можно ли пропустить ход", K.BASICS),
    ("кому достаются карты оставшиеся на столе в конце", K.BASICS),
    ("сколько человек может играть в кончинку", K.BASICS),
    ("что такое кончинка", K.BASICS),
    ("в чем смысл кончинки", K.BASICS),
    ("кладут ли карты на стол при второй сдаче", K.BASICS),
    ("кто сдает следующую раздачу в кончинке", K.BASICS),
    ("а если на столе при раздаче оказался валет?", K.BASICS),
    ("видно ли сколько карт у других в стопке", K.BASICS),
    ("можно не ходить?", K.BASICS),
    ("что делать если нечем брать", K.BASICS),
    ("скока карт на стол кладут", K.BASICS),
    ("кто ходит первым в кончинке", K.BASICS),
    # Кончинка: captures
    ("как брать карты со стола", K.CAPTURES),
    ("что бьет валет", K.CAPTURES),
    ("можно ли взять сразу две взятки за ход", K.CAPTURES),
    ("восьмеркой можно взять тройку и пятерку?", K.CAPTURES),
    ("можно положить карту если могу взять", K.CAPTURES),
    ("валет на пустой стол что делает", K.CAPTURES),
    ("можно ли брать по сумме очков", K.CAPTURES),
    ("туз это один или одиннадцать", K.CAPTURES),
    ("что может взять дама", K.CAPTURES),
    ("сколько очков у дамы в обычной кончинке", K.CAPTURES),
    ("семеркой можно забрать тройку с четверкой?", K.CAPTURES),
    ("валетом забираю весь стол?", K.CAPTURES),
    ("сколко стоит туз в кончинке", K.CAPTURES),
    # Кончинка: the points variant
    ("что такое очковая кончинка", K.POINTS),
    ("сколько стоит валет в очковой", K.POINTS),
    ("в очковой валет забирает весь стол?", K.POINTS),
    ("король берет 14 или 13?", K.POINTS),
    ("чем очковая отличается от классики", K.POINTS),
    ("какие очки у картинок в очковом варианте", K.POINTS),
    ("что берет король в очковой кончинке", K.POINTS),
    # Кончинка: scoring a deal
    ("сколько очков за кончинку", K.SCORING),
    ("за что дают очки в кончинке", K.SCORING),
    ("кто получает очко за трефы", K.SCORING),
    ("что если карт у всех поровну", K.SCORING),
    ("сколько максимум можно набрать за раздачу", K.SCORING),
    ("что дает десятка бубен", K.SCORING),
    ("двойка крести сколько стоит", K.SCORING),
    ("если у двоих одинаково треф кому очко", K.SCORING),
    ("как считаются очки после раздачи", K.SCORING),
    ("сколько дают за большинство карт", K.SCORING),
    # Кончинка: the tally and the settlement
    ("до скольки играем", K.TALLY),
    ("сколько очков нужно для победы в кончинке", K.TALLY),
    ("что будет если никто не набрал", K.TALLY),
    ("что если двое набрали 15 одновременно", K.TALLY),
    ("как записывают очик", K.TALLY),
    ("почему цифры зачеркнуты", K.TALLY),
    ("сколько платит проигравший", K.TALLY),
    ("что значит играть на кон", K.TALLY),
    ("у меня 9 очков сколько я должен", K.TALLY),
    ("кто победит если у обоих больше 15", K.TALLY),
    # Кончинка: the early finish
    ("когда можно прикончить", K.EARLY_FINISH),
    ("что значит прикончить", K.EARLY_FINISH),
    ("можно закончить партию досрочно?", K.EARLY_FINISH),
    ("почему у меня нет кнопки прикончить", K.EARLY_FINISH),
    ("что получают остальные если кто-то прикончил", K.EARLY_FINISH),
    ("зачем считать 27 карт", K.EARLY_FINISH),
    ("можно прикончть если не хватает трех очков", K.EARLY_FINISH),
    ("а прикончить при равенстве можно?", K.EARLY_FINISH),
    # Кончинка: the table's settings
    ("какие есть настройки", K.OPTIONS),
    ("что значит брать обязательно", K.OPTIONS),
    ("сколько времени дается на ход", K.OPTIONS),
    ("кто может поменять настройки", K.OPTIONS),
    ("почему за меня сходил бот", K.OPTIONS),
    ("можно ли играть до 21 очка", K.OPTIONS),
    ("как включить несколько взяток за ход", K.OPTIONS),
    # Кинг: dealing and tricks
    ("сколько раздачь в кинге", G.BASICS),
    ("сколько карт в колоде в кинге", G.BASICS),
    ("можно ли играть в кинг втроем", G.BASICS),
    ("обязательно ходить в масть?", G.BASICS),
    ("кто забирает взяку", G.BASICS),
    ("что старше дама или валет в кинге", G.BASICS),
    ("кто сдает в кинге", G.BASICS),
    ("скока карт у каждого в кинге", G.BASICS),
    ("кто заходит после взятки", G.BASICS),
    # Кинг: the negative deals
    ("что такое ералаш", G.NEGATIVE),
    ("можно ли ходить с червей", G.NEGATIVE),
    ("когда надо скидывать кинга", G.NEGATIVE),
    ("что значит не брать девочек", G.NEGATIVE),
    ("какие раздачи бывают в кинге", G.NEGATIVE),
    ("в каком порядке играются раздачи кинга", G.NEGATIVE),
    ("почему сыграли не все взятки", G.NEGATIVE),
    ("обязан ли я отдать короля червей", G.NEGATIVE),
    ("можно заходить в черву если других мастей нет", G.NEGATIVE),
    ("что за мальчики и девочки", G.NEGATIVE),
    ("ералащ это что", G.NEGATIVE),
    # Кинг: trumps
    ("кто выбирает козырь", G.TRUMP),
    ("что значит по последней", G.TRUMP),
    ("обязательно бить козырем?", G.TRUMP),
    ("надо ли перебивать козырь", G.TRUMP),
    ("кто первый ходит в отыгрыше", G.TRUMP),
    ("что такое отыгрышь", G.TRUMP),
    ("козыря кто назначет", G.TRUMP),
    # Кинг: scoring
    ("сколько стоит кинг червей", G.SCORING),
    ("сколько штрафа за даму", G.SCORING),
    ("как считается итог в кинге", G.SCORING),
    ("сколько всего штрафных очков", G.SCORING),
    ("сколько стоит черва", G.SCORING),
    ("сколько минус за валета в кинге", G.SCORING),
    ("сколько очков за взятку в отыгрыше", G.SCORING),
    ("почему в сумме ноль", G.SCORING),
    # English
    ("how many cards does each player get in konchinka", K.BASICS),
    ("can I pass?", K.BASICS),
    ("who gets the cards left on the table at the end", K.BASICS),
    ("what is a konchinka", K.BASICS),
    ("how do captrues work", K.CAPTURES),
    ("what does the jack take", K.CAPTURES),
    ("can i lay a card when i could capture", K.CAPTURES),
    ("what is an ace worth", K.CAPTURES),
    ("how much is a jack worth in points konchinka", K.POINTS),
    ("does the jack sweep the table in the points variant", K.POINTS),
    ("how many points for the two of clubs", K.SCORING),
    ("what if the cards are tied", K.SCORING),
    ("who gets the point for clubs", K.SCORING),
    ("what score do we play to", K.TALLY),
    ("what does the looser pay", K.TALLY),
    ("how does the tally work", K.TALLY),
    ("when can I finish early", K.EARLY_FINISH),
    ("why is there no finish button", K.EARLY_FINISH),
    ("what do the others get when someone finishes", K.EARLY_FINISH),
    ("what settings are there", K.OPTIONS),
    ("what happens if I don't move in time", K.OPTIONS),
    ("how many deals are there in king", G.BASICS),
    ("must I follow suit", G.BASICS),
    ("who leads the next trick", G.BASICS),
    ("can I lead hearts?", G.NEGATIVE),
    ("what is eralash", G.NEGATIVE),
    ("when must i play the king of hearts", G.NEGATIVE),
    ("why did the deal end early", G.NEGATIVE),
    ("who chooses trupm", G.TRUMP),
    ("what does by the last card mean", G.TRUMP),
    ("do i have to trump", G.TRUMP),
    ("how much is the king of hearts", G.SCORING),
    ("penalty for a queen", G.SCORING),
    ("how is the final score counted in king", G.SCORING),
)
"""Questions, as asked at a table."""

TOPICS: Final[tuple[tuple[str, Section], ...]] = (
    ("раздача кончинка", K.BASICS),
    ("остаток на столе", K.BASICS),
    ("взятка по сумме", K.CAPTURES),
    ("валет забирает все", K.CAPTURES),
    ("очковый вариант", K.POINTS),
    ("король 13 очков", K.POINTS),
    ("очки за трефы", K.SCORING),
    ("кончинки 2♣ 10♦", K.SCORING),
    ("ничья по картам", K.SCORING),
    ("расчет по очкам", K.TALLY),
    ("зачеркнутые очки", K.TALLY),
    ("прикончить партию", K.EARLY_FINISH),
    ("досрочный конец партии", K.EARLY_FINISH),
    ("таймер хода", K.OPTIONS),
    ("брать обязательно", K.OPTIONS),
    ("колода 32 карты", G.BASICS),
    ("старшинство карт кинг", G.BASICS),
    ("не брать мальчиков", G.NEGATIVE),
    ("две последние взятки", G.NEGATIVE),
    ("кинга скинуть", G.NEGATIVE),
    ("козырь по последней", G.TRUMP),
    ("перебить козырем", G.TRUMP),
    ("штрафы кинг", G.SCORING),
    ("ералаш 96", G.SCORING),
    ("trump by the last card", G.TRUMP),
    ("king of hearts penalty", G.SCORING),
    ("early finish", K.EARLY_FINISH),
    ("sum capture", K.CAPTURES),
    ("fixed stake", K.TALLY),
    ("follow suit king", G.BASICS),
)
"""Keyword queries: a word or two, the way one types into inline mode."""

ALL: Final = QUESTIONS + TOPICS

GROUP_CASES: Final[tuple[tuple[str, str, str, Section], ...]] = (
    # (query, the kind of the game in the chat, its variant ("" for a game without variants), the section expected)
    ("валет", "konchinka", "classic", K.CAPTURES),
    ("сколько стоит король", "konchinka", "classic", K.CAPTURES),
    ("очки", "konchinka", "classic", K.SCORING),
    ("сколько карт сдают", "konchinka", "classic", K.BASICS),
    ("кто ходит первым", "konchinka", "classic", K.BASICS),
    ("что будет если не успею сходить", "konchinka", "classic", K.OPTIONS),
    ("до скольки играем", "konchinka", "classic", K.TALLY),
    ("взятки", "konchinka", "classic", K.CAPTURES),
    ("валет", "konchinka", "points", K.POINTS),
    ("сколько стоит король", "konchinka", "points", K.POINTS),
    ("что берет дама", "konchinka", "points", K.POINTS),
    ("можно ли валетом забрать весь стол", "konchinka", "points", K.POINTS),
    ("очки", "konchinka", "points", K.SCORING),
    ("сколько карт сдают", "konchinka", "points", K.BASICS),
    ("очки", "king", "", G.SCORING),
    ("взятки", "king", "", G.NEGATIVE),
    ("сколько карт сдают", "king", "", G.BASICS),
    ("кто ходит первым", "king", "", G.BASICS),
    ("сколько стоит валет", "king", "", G.SCORING),
    ("что будет если не успею сходить", "king", "", G.BASICS),
    ("колода", "king", "", G.BASICS),
    ("можно ли скинуть любую карту", "king", "", G.NEGATIVE),
)
"""Asked in a group where a game is being played: the chat's game and variant decide."""
