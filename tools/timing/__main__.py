from tools.timing.report import main

raise SystemExit(main())
