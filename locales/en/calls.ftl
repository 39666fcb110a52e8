## /nextgame: call me when the group's next game opens

cmd-nextgame = Call me to the next game
nextgame-on = 🔔 { $name }, I'll message you in private when a new game opens in this chat. Changed your mind? /nextgame again.
nextgame-on-write-first = 🔔 { $name }, you are on the list, but I can't message you in private yet: open a chat with me and tap “Start”, or I can't call you. Changed your mind? /nextgame again.
nextgame-off = 🔕 { $name }, I won't call you: you are off the list for the next game.
nextgame-btn-private = 💬 Open a chat with the bot
nextgame-call = 🔔 A new game has opened — { $game }, gathered by { $creator }. You asked to be called (/nextgame in the group): take a seat with the button below.
nextgame-btn-join = ✋ Join
help-nextgame = /nextgame in a group — I'll message you in private when its next game opens (again — off).

## /help: why a move is not taken back

help-no-undo = A move cannot be taken back: a card laid on the table is already seen by everyone, as at a real table. A card with several moves first asks which one, and there you can go back.

## /settings: a chat's own settings for its new games

cmd-settings = This chat's game settings
chatsettings-saved = 💾 Saved for this chat — its new games of this kind will start like this:
    { $settings }
    /settings reset — back to the usual ones.
chatsettings-list = ⚙️ New games in this chat start like this:
    { $settings }
    To change: open a game, set it up in “⚙️ Settings” and send /settings (a chat admin). /settings reset — back to the usual ones.
chatsettings-none = ⚙️ This chat has no settings of its own: new games start with the usual ones. To save yours, open a game, set it up in “⚙️ Settings” and send /settings — a chat admin may.
chatsettings-reset = ↩️ The chat has no settings of its own any more: new games start with the usual ones.
chatsettings-admins-only = ⚙️ Only the chat's admins save game settings for the whole chat.
help-settings = /settings in a group — an admin saves the open game's settings as the chat's usual ones.
