from tokviz.cli import main

raise SystemExit(main())
