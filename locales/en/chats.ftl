## First contact and the wrong chat: /start, the private menu, a command meant for the other kind of chat

chats-start =
    👋 Hi! I host card games: { $games }.

    🎮 <b>With bots</b> — right here in this chat: a game starts in a couple of taps.
    👥 <b>With friends</b> — add me to a group and type { $commands } there.

    All commands: /help.
chats-menu = I understand commands and buttons. What shall we do?
chats-group-only = { $command } works in a group: add me to a chat with your friends and type it there. You can play with bots right here.
chats-private-only = { $command } works in a private chat with me — open it with the button below.
chats-group-start = To play here, type { $commands }, or /new to choose a game. You can play with bots in a private chat with me.
btn-play-bots = 🎮 Play with bots
btn-add-group = 👥 Add to a group
btn-open-private = 💬 Open the private chat
answer-too-many = Too many questions in a row — I'll skip this one. Ask it again in half a minute.
answer-open-private-first = The rules go to our private chat, which you haven't opened yet: open it and tap Start.
solo-menu = What shall we play? For Konchinka choose how many bots sit at the table; King is always four players — you and three bots.
solo-menu-opponents-btn = { $game } — { $count ->
    [1] with one bot
    [2] with two bots
    [3] with three bots
   *[other] bots: { $count }
}

## /lang

lang-title-group = 🌐 Which language shall I speak in this chat? Now: { $current ->
    [ru] Russian
    [en] English
   *[auto] each person's own, as in their Telegram
}.
lang-title-private = 🌐 Which language shall I speak with you? Now: { $current ->
    [ru] Russian
    [en] English
   *[auto] as in your Telegram
}.
lang-set-ru = ✅ I speak Russian here now.
lang-set-en = ✅ I speak English here now.
lang-set-auto = ✅ I now speak to each person in the language of their Telegram.
lang-admins-only = Only the group's admins change its language.
lang-unknown = I don't know that language: “{ $words }”. Choose with a button.
lang-not-yours = 🌐 Here I speak { $current ->
    [ru] Russian
    [en] English
   *[auto] to each person in the language of their Telegram
}. Only the group's admins change its language.
btn-lang-ru = 🇷🇺 Русский
btn-lang-en = 🇬🇧 English
btn-lang-auto = 🌐 As in Telegram
cmd-lang = Bot language

## /leave

chats-left = 🚪 { $name } leaves the table — a bot has taken the seat for now.
chats-left-private = 🚪 You left the table — a bot plays for you from now on. Changed your mind? Tap «↩️ Back to the game».
answer-already-left = A bot already plays for you. Tap «↩️ Back to the game» to come back.
cmd-leave = Leave the table
