// The first screen of a signed-in page in React (decision 030): the markup the Worker paints from
// the HTML (shared/first-paint/first-screen.ts), shown while the session is restored and the page loads.
import { useRouterState } from "@tanstack/react-router";
import { FIRST_SCREEN_CLASS as c, firstScreenOf, type FirstScreenHeader } from "@shared/first-paint/first-screen";
import { PageSpinner } from "@web/components/ui/spinner";

/** The page's title and the line under it, where the page header puts them. */
export function FirstScreenHeading({ header }: { header: FirstScreenHeader }) {
  return (
    <div className={c.header}>
      <h1 className={c.title}>{header.title}</h1>
      {header.description ? <p className={c.description}>{header.description}</p> : null}
    </div>
  );
}

/** The frame and the header, as the HTML painted them. */
export function FirstScreen({ header }: { header: FirstScreenHeader }) {
  return (
    <div className={c.frame}>
      <aside className={c.sidebar} />
      <header className={c.topBar} />
      <main id="main" className={c.main}>
        <FirstScreenHeading header={header} />
      </main>
    </div>
  );
}

/** The first screen of the current path, if it has one. */
export const useFirstScreen = () => firstScreenOf(useRouterState({ select: (s) => s.location.pathname }));

/** While a private page waits for the session: its first screen, or a spinner for pages without one. */
export function PrivatePagePending() {
  const header = useFirstScreen();
  return header ? <FirstScreen header={header} /> : <PageSpinner />;
}
