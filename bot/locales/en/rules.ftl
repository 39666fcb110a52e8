## /rules and /help

rules-title-konchinka = Konchinka
rules-title-points = Points Konchinka
rules-title-scoring = Scoring
rules-title-tally = The tally and settlement
rules-title-early-finish = Finishing early
rules-title-options = Table settings
rules-title-king = King
rules-title-king-scoring = King: scoring

rules-nav-konchinka = Konchinka
rules-nav-points = Points
rules-nav-scoring = Scoring
rules-nav-tally = Tally
rules-nav-early-finish = Finish
rules-nav-options = Settings
rules-nav-king = King
rules-nav-king-scoring = King scoring

rules-this-game = <i>This game: { $options }</i>

rules-konchinka =
    A 52-card deck, no trumps, 2–4 players, play goes clockwise.

    <b>Dealing.</b> The first dealer is drawn by lot; after each deal the deal passes to the left. The dealer gives everyone 4 cards and lays 4 cards face up on the table. The starting table never holds a jack or two cards of the same rank: such a card goes back into the middle of the deck and the next card takes its place. Whenever all hands are empty, the same dealer gives everyone 4 more cards (none to the table), until the deck runs out. The dealer's left neighbour moves first.

    <b>A move.</b> Every move is exactly one card from your hand; you can't pass. The card either captures or is laid on the table:
    • it takes one table card of the same rank;
    • or a set of table cards whose points add up to its own. Ace is 1, two to ten are their face value. An eight takes ace + two + five, a seven takes three + four.
    Only one such capture a move. Queens and kings have no points and take only their own rank. A jack takes the whole table; on an empty table it is simply laid.
    You may always lay a card instead, even when you could capture.

    The captured cards and the capturing card go to your pile, face down. Everyone can see how many cards and how many clubs each pile holds. When the deck and the hands are empty, whatever is left on the table goes to the last player who captured (to nobody if nobody captured).
rules-points =
    Just like Konchinka, but every card has points: ace 1, two to ten their face value, jack 11, queen 12, king 13.

    Every card takes a card of its own rank or a set of cards with the same sum: a king takes, say, six + seven or queen + ace, a jack takes five + six.

    Here a jack does <b>not</b> sweep the table — it captures like any other card.
rules-scoring =
    After every deal:
    • most cards in the pile — <b>2 points</b>;
    • most clubs — <b>1 point</b>;
    • each <b>konchinka</b> — 2♣ and 10♦ — <b>1 point</b> to whoever holds it.

    "Most" means strictly more than every other player. On a tie nobody gets those points. A deal gives at most 5 points in all.
rules-tally =
    Deals go on until somebody reaches the target (usually 15). If several reach it after the same deal, the highest total wins; if they are level at the top, one more deal is played.

    The tally is kept the paper way: after each deal the new total is written next to the old one, which is crossed out. A player who scored 2, then 4, then 3 reads: <s>2</s> <s>6</s> 9.

    <b>Settlement</b> at the end:
    • <b>on points</b> — each loser owes the winner what they still lacked: with a target of 15, a player at 10 owes 5;
    • <b>fixed stake</b> — each loser owes the winner the agreed stake.
    The bot moves no money: it only counts and keeps it in the statistics.
rules-early-finish =
    A player who needs 2 points or fewer to reach the target may <b>finish</b> the party mid-deal — on their move, once what they have already captured this deal is sure to bring the missing points:
    • each captured konchinka — 1 point;
    • 7 or more clubs — the clubs point (there are 13 clubs, nobody can have more);
    • 27 or more cards — the 2 card points (there are 52 cards).

    When this is allowed, a «🏁 Finish it!» button appears under your cards. The party ends at once, you win, and the secured points go into the tally. Early finishing can be switched off in the settings.
rules-options =
    The host chooses the settings before the start; the table header shows them.
    • <b>Variant</b>: classic or points Konchinka.
    • <b>Target</b>: how many points to play to (usually 15).
    • <b>Several captures</b> (off by default): one card may take several sets at once if they don't overlap.
    • <b>Must capture</b> (off by default): if you can capture, you may not lay a card.
    • <b>Early finish</b> (on by default).
    • <b>Settlement</b>: on points or a fixed stake.
    • <b>Time per move</b>: the bot reminds you shortly before it runs out; then a bot moves for you, and after two missed turns in a row a bot takes your seat — one tap takes it back.
rules-king =
    Four players (bots fill empty seats). A 32-card deck, seven to ace; in each suit A K Q J 10 9 8 7. Each player gets 8 cards, 8 tricks a deal. Play goes clockwise and you must follow suit. The highest card of the led suit wins the trick, or the highest trump if a trump was played. The winner leads next.

    <b>Part one — 7 negative deals</b>, no trumps: no tricks, no jacks, no queens, no hearts, not the last two tricks, not the king of hearts, and the eralash — all of them at once. If you can't follow suit, play any card. In «hearts», «king» and «eralash» you may not lead hearts while holding another suit. In «king» and «eralash» the king of hearts must go at the first chance: when you can't follow suit, and also when hearts are led and the ace of hearts is already in the trick (this second case can be switched off). A deal stops early once no penalty is left (except «no tricks», «last two» and «eralash»). The first dealer is drawn by lot, the deal passes left, and the dealer's left neighbour leads. The order of the seven deals is agreed before the start: the game's creator may pick another one in the settings (jacks first, or the card deals before the trick deals).

    <b>Part two — 8 deals with trumps</b>. The player to the dealer's right names trump after seeing the first 3 of their cards: a suit, or «the last card» — then trump is the suit of their eighth card, shown to all. The others see their cards once trump is named. The chooser leads first and deals the next deal, so everyone names trump twice. If you can't follow suit you must trump if you can; you need not over-trump.
rules-king-scoring =
    <b>Penalties</b> in part one:
    • a trick — 2, 16 in all;
    • a jack — 4, 16 in all;
    • a queen — 4, 16 in all;
    • a heart — 2, 16 in all;
    • each of the last two tricks — 8, 16 in all;
    • the king of hearts — 16;
    • eralash — all of these together, 96.
    192 penalty points in all.

    <b>Part two</b>: 3 points a trick, 24 a deal, 192 for all eight.

    A player's result is their part-two points minus penalties; the four results always add up to 0. At the end the bot shows the table of all 15 deals.

help-text =
    <b>Konchinka and King</b> — card games right in Telegram.

    <b>In a group</b>
    /konchinka or /king — gather a game. Everyone taps «✋ Join» and lands in a private chat with the bot: your cards come there and you move there. The group sees the shared table and the tally.
    /new — choose a game, /score — show the table again, /cancel — cancel the game (host or admin), /top — the chat's best players.

    <b>In private</b>
    /play — play against bots, /stats — your statistics.

    /rules — the rules of both games.
    A move takes two taps: a card, then what it does. A card with only one choice plays at once.

cmd-play = Play against bots
cmd-rules = Rules
cmd-stats = My statistics
cmd-help = Help
cmd-konchinka = New Konchinka
cmd-king = New King
cmd-new = New game
cmd-score = Show the table
cmd-cancel = Cancel the game
cmd-top = The chat's best players
