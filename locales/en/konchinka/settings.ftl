## Konchinka: its name, its command, the table settings

game-konchinka = Konchinka
game-konchinka-button = 🃏 Konchinka
cmd-konchinka = New Konchinka

opt-variant = { $variant ->
    [points] points
   *[classic] classic
}
opt-target = to { $target }
opt-multi-on = several captures a move
opt-forced-on = capture is compulsory
opt-early-off = no early finish
opt-stake = stake { $stake }
settlement-name = { $settlement ->
    [stake] fixed stake
   *[points] on points
}

settings-variant = Variant: { $variant ->
    [points] points Konchinka
   *[classic] classic
}
settings-target = Play to: { $target }
settings-multi = Several captures a move: { $value }
settings-forced = Capture is compulsory: { $value }
settings-early = Early finish allowed: { $value }
settings-settlement = Settlement: { $settlement ->
    [stake] fixed stake of { $stake }
   *[points] on points
}
settings-hint = The host can change these until the game starts.
settings-multi-short = Several captures
settings-forced-short = Must capture
settings-early-short = Early finish
