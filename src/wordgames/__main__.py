"""`python -m wordgames`: the same as the `wordgames` command."""

from wordgames.cli import main

if __name__ == "__main__":
    main()
