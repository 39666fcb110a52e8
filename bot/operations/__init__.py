"""Operations: what the operator sees of the running bot (``operator``: /admin, failure reports)."""
