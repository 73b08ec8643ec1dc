from dataprep.prepare import main

raise SystemExit(main())
