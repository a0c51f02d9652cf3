"""The dashboard's pages (run by ``streamlit run app.py``, whose ``st.navigation`` lists them) and what they share.

Top to bottom, each module importing only those below it (the "Dashboard layers" contract in pyproject.toml):
the page scripts (``scenario``, ``heuristics``, ``run``, ``results``, ``explain``, ``sweep``, ``papers``);
``results_view``; ``models`` (the dashboard's part of each model); ``runs`` (the session's run); ``widgets``;
``session`` (the session's state); ``jobs`` (background jobs and kernel warm-up).
"""
