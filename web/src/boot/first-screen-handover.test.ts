import { afterEach, describe, expect, it } from "vitest";
import { appContainer } from "./first-screen-handover";

afterEach(() => {
  document.body.innerHTML = "";
});

const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe("appContainer", () => {
  it("is the shell's root element itself when the HTML painted nothing in it", () => {
    document.body.innerHTML = `<div id="root"></div>`;
    const shell = document.getElementById("root")!;
    expect(appContainer(shell)).toBe(shell);
  });

  it("keeps the first screen while the app has shown nothing, and removes it with the app's first content", async () => {
    document.body.innerHTML = `<div id="root"><main><h1>First</h1></main>text</div>`;
    const shell = document.getElementById("root")!;
    const container = appContainer(shell);
    expect(container.parentElement).toBe(shell);
    expect(container.style.display).toBe("contents");
    await settle();
    expect(shell.querySelector("h1")?.textContent).toBe("First");

    const page = document.createElement("section");
    page.textContent = "The app";
    container.append(page);
    await settle();
    expect([...shell.childNodes]).toEqual([container]);
    expect(shell.textContent).toBe("The app");

    // Later renders of the app are its own business.
    container.replaceChildren();
    await settle();
    expect([...shell.childNodes]).toEqual([container]);
  });
});
