// The hand-over from a first screen painted by the HTML (decisions 030 and 033) to the app.
//
// React empties its container on its first commit, and the router's first commit can be empty (a
// page waiting for its session shows its pending screen a moment later). Rendered into the shell's
// root element, the app would blank the first screen for that moment, and a field's text would be
// gone before the page's own field could take it over. So the app renders into an element of its
// own beside the first screen, laid out as if it were not there (display: contents), and the first
// screen leaves when the app's first content arrives: a mutation observer runs before that frame is
// painted, so the two are never on screen together, and the screen is never blank between them.

/** The element to render the app into: the shell's root element itself when it holds no first screen. */
export function appContainer(shell: HTMLElement): HTMLElement {
  const firstScreen = [...shell.childNodes];
  if (firstScreen.length === 0) return shell;
  const container = document.createElement("div");
  container.style.display = "contents";
  shell.append(container);
  const observer = new MutationObserver(() => {
    if (container.childNodes.length === 0) return;
    observer.disconnect();
    for (const node of firstScreen) node.remove();
  });
  observer.observe(container, { childList: true });
  return container;
}
