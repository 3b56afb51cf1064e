from evidencegate.cli import main

raise SystemExit(main())
