## /rules and /help

btn-rules-all = 📚 All the rules
btn-rules-private = 📚 In full — in private
btn-rules-bot = 📚 All the rules in the bot
rules-inline-contents-title = 📚 Contents of the rules
rules-contents = The rules of Konchinka and King
rules-which-game = ❓ <b>Which game?</b> The question fits both — here is each one's answer:
rules-not-found = I found no such rule.
rules-topics-game = <b>{ $game }:</b> { $sections }.
rules-topics-basics = Dealing and moves
rules-contents-game = Rules: { $game }
rules-topics-others = Other games: { $games } — “/rules” and the game’s name.
rules-topics =
    { $games }
    For example, ask “/rules eralash” or “/rules scoring”. In any chat you can type @{ $bot } and a word to post the rule there.

rules-examples-title = { $count ->
    [one] <b>Example</b>
   *[other] <b>Examples</b>
}
rules-list-or = {" "}or{" "}
rules-list-and = {" "}and{" "}

help-text =
    <b>{ $games }</b> — card games right in Telegram.

    <b>In a group</b>
    { $commands } — gather a game. Tap “✋ Join” and the bot writes to you in private: your cards come there and you move there. The group sees the shared table and the tally.
    /new — choose a game, /score — the score sheet as a picture (/score text — the table as text), /cancel — cancel the game (host or admin), /top — the chat's best players.

    <b>In private</b>
    /play — play against bots, /stats — your statistics, /me — your page: form, records, achievements.

    /rules — all the rules; /rules eralash — the rule you need. In any chat, type @{ $bot } eralash to post a rule there.
    { $moves }

cmd-play = Play against bots
cmd-rules = Rules
cmd-stats = My statistics
cmd-me = My page: form, records, achievements
cmd-help = Help
cmd-new = New game
cmd-score = The score sheet as a picture
cmd-cancel = Cancel the game
cmd-top = The chat's best players

## Direct answers: a line above the section when a question has a short answer

rules-answer-turn-time = { $seconds ->
    [-1] The time per move is chosen in the game's settings. If you don't move in time, a bot player moves for you, and after two missed turns in a row it takes your seat until you come back.
    [0] This game has no time limit per move.
   *[other] In this game a move has { $seconds } { $seconds ->
        [one] second
       *[other] seconds
    }; if you don't move in time, a bot player moves for you.
}
