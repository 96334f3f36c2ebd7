// The roulette's mobile layout flag: true at 768 px wide or less (spec section 9 "Mobile
// breakpoint"). False on the server and until the first effect, like every browser-only value.
import { useEffect, useState } from "react";

export const MOBILE_QUERY = "(max-width: 768px)";

export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(false);
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia(MOBILE_QUERY);
    setMobile(query.matches);
    const onChange = () => setMobile(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return mobile;
}
