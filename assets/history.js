// hcsched dashboard: Back goes to the previous page. The address carries the scenario and the session's id, and
// Streamlit pushes a browser-history entry each time the server changes them (an edit, a page's first run), so Back
// took up to six presses, each landing on the same page. Here an entry whose path is the page already shown replaces
// the current one; a new page still adds one. Installed once per tab.
(function () {
  const w = window.parent && window.parent.history ? window.parent : window;
  if (w.__hcschedHistory) return;
  w.__hcschedHistory = true;
  const push = w.history.pushState.bind(w.history);
  w.history.pushState = function (state, title, url) {
    const next = url === undefined || url === null ? null : new URL(url, w.location.href);
    if (next && next.pathname === w.location.pathname) {
      return w.history.replaceState(state, title, url);
    }
    return push(state, title, url);
  };
})();
