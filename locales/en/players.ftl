## Achievements: told once, with the party's result

feat-yours = 🏅 New achievement — { $feat }: { $about }
feat-theirs = 🏅 { $name } — { $feat }
feat-master-first = 🎓 First win over the master
feat-master-first-about = a party won against bot players at the «master» level.
feat-master-ten = 🏆 Ten in a row
feat-master-ten-about = ten parties in a row won against the «master» (a party given up after a move breaks the run).
