// A module a page may need after it has painted (an editor, a dialog): it loads once the page is idle
// after load, so it is there before it is asked for, or at once when it is asked for first. The
// page's first paint never waits for it (decision 037).
import { useEffect, useState } from "react";
import { whenIdleAfterLoad } from "./idle";

/**
 * `module` is null until `load` answered. `withModule(run)` runs `run` with the module: at once when
 * it is loaded, else when it arrives; a failed load calls `onFailure` and runs nothing. `load` must
 * be stable (a module-level function).
 */
export function useIdleModule<M>(load: () => Promise<M>, onFailure: () => void) {
  const [module, setModule] = useState<M | null>(null);
  useEffect(() => whenIdleAfterLoad(() => void load().then(setModule, () => {})), [load]);
  const withModule = (run: (m: M) => void) => {
    if (module) return run(module);
    void load().then((m) => {
      setModule(m);
      run(m);
    }, onFailure);
  };
  return { module, withModule };
}

/**
 * A dialog whose code is such a module, opened by a button of the page's own (it is there, and keeps
 * focus, before the code is): the open state, the module, and the button's props, which say what it
 * opens as Radix's trigger did and open the dialog once its code is in.
 */
export function useIdleDialog<M>(load: () => Promise<M>, onFailure: () => void) {
  const [open, setOpen] = useState(false);
  const { module, withModule } = useIdleModule(load, onFailure);
  const triggerProps = { "aria-haspopup": "dialog", "aria-expanded": open, onClick: () => withModule(() => setOpen(true)) } as const;
  return { module, open, setOpen, triggerProps };
}
