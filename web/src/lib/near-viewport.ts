// Work for a part of the page that is far below the fold can wait until it comes near the screen.
import { useEffect, useRef, useState } from "react";

/**
 * A ref for an element, and whether it has come within `margin` of the viewport yet (once true,
 * it stays true). Without IntersectionObserver the element counts as near at once.
 */
export function useNearViewport<T extends Element>(margin = "300px"): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, margin]);
  return [ref, near];
}
