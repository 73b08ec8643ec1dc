from tools.preflight.cli import main

raise SystemExit(main())
