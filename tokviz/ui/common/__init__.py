"""What every panel shares: the message bar, image export, the background-task runner and the
Panel protocol the main window drives."""
