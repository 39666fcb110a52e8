"""Guards around every update, before and beside the game flow: updates applied once (``updates``), incoming
throttling (``throttle``), refusals merged per chat (``refusals``), database trouble and the bound on updates in
flight (``trouble``), membership and admin rights asked of Telegram (``access``)."""
