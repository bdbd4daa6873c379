// 'Buy Phone Number' tab: the usage bar, the area-code search and its paged results.
// Buying is blocked once the account holds as many numbers as its limit (docs/product/errors-and-texts.md#validation-messages).
import { LoaderCircle, Search } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { PHONE_TEXT, PHONE_API_TEXT } from "@shared/messages";
import type { AvailableNumberView } from "@shared/schemas/phone-numbers";
import { PlanRequiredNotice } from "@web/components/plans/plan-required-notice";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { Spinner } from "@web/components/ui/spinner";
import { errorMessage } from "@web/lib/api";
import { useAvailableNumbers } from "../api/get-available-numbers";
import { usePhoneLimit } from "../api/get-phone-limit";
import { useUsageStats } from "@web/api/usage-stats";
import { NumberResults } from "./number-results";
import { PurchaseDialog } from "./purchase-dialog";
import { UsageBar } from "./usage-bar";
import { Skeleton } from "@web/components/ui/skeleton";

const AREA_CODE = /^(\d{3})?$/;

function Usage({
  count,
  limit,
  failed,
  onRetry,
}: {
  count: number | undefined;
  limit: number | undefined;
  failed: boolean;
  onRetry: () => void;
}) {
  if (count === undefined || limit === undefined) {
    // A failed load says so instead of pulsing forever.
    if (failed) {
      return (
        <div className="flex flex-wrap items-center gap-3">
          <p role="alert" className="text-sm font-medium text-destructive">
            {PHONE_TEXT.usageFailed}
          </p>
          <Button variant="outline" size="sm" onClick={onRetry}>
            {PHONE_TEXT.retry}
          </Button>
        </div>
      );
    }
    return (
      <div className="grid gap-2" aria-hidden>
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-2.5 w-full rounded-full" />
      </div>
    );
  }
  return <UsageBar count={count} limit={limit} />;
}

/** `email`: the account's, for the link to the plans. */
export function BuyNumberPanel({ email }: { email?: string } = {}) {
  const usage = useUsageStats();
  const phoneLimit = usePhoneLimit();
  const [areaCodeInput, setAreaCodeInput] = useState("");
  const [areaCodeError, setAreaCodeError] = useState<string | undefined>();
  const [searched, setSearched] = useState<string | null>(null);
  const [buying, setBuying] = useState<AvailableNumberView | null>(null);
  const results = useAvailableNumbers(searched);
  const panel = useRef<HTMLDivElement>(null);

  // A bought number leaves the results, and its Buy button with it: focus moves on to the first Buy
  // button still offered (or the search button), not to the top of the page.
  const afterPurchase = () =>
    panel.current?.querySelector<HTMLElement>(`ul[aria-label="${PHONE_TEXT.availableNumbers}"] button:not(:disabled)`) ??
    panel.current?.querySelector<HTMLElement>('form button[type="submit"]');

  const count = usage.data?.numbers;
  const limit = phoneLimit.data?.phoneNumberLimit ?? usage.data?.numberLimit;
  const blocked = count !== undefined && limit !== undefined && count >= limit;

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const areaCode = areaCodeInput.trim();
    if (!AREA_CODE.test(areaCode)) {
      setAreaCodeError(PHONE_API_TEXT.areaCodeInvalid);
      return;
    }
    setAreaCodeError(undefined);
    if (areaCode === searched) void results.refetch();
    else setSearched(areaCode);
  }

  const searching = results.isFetching;

  return (
    <div ref={panel} className="grid gap-6">
      <PlanRequiredNotice email={email} />
      <Card>
        <CardContent className="grid gap-6 p-6">
          <Usage count={count} limit={limit} failed={usage.isError} onRetry={() => void usage.refetch()} />
          <form onSubmit={onSearch} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
            <div className="sm:w-72">
              <FormField
                label={PHONE_TEXT.areaCodeLabel}
                name="areaCode"
                inputMode="numeric"
                autoComplete="off"
                maxLength={3}
                placeholder="305"
                value={areaCodeInput}
                onChange={(e) => setAreaCodeInput(e.target.value.replace(/\D/g, "").slice(0, 3))}
                error={areaCodeError}
                hint={PHONE_TEXT.areaCodeHint}
              />
            </div>
            <Button type="submit" className="sm:mt-6" disabled={searching}>
              {searching ? <LoaderCircle className="animate-spin" aria-hidden /> : <Search aria-hidden />}
              {PHONE_TEXT.search}
            </Button>
          </form>
        </CardContent>
      </Card>

      {searched === null ? (
        <p className="text-sm text-muted-foreground">{PHONE_TEXT.searchPrompt}</p>
      ) : results.isPending ? (
        <ResultsSkeleton />
      ) : results.isError ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errorMessage(results.error, PHONE_TEXT.networkError)}
        </p>
      ) : results.data.numbers.length === 0 ? (
        <p className="text-sm text-muted-foreground">{PHONE_TEXT.noResults}</p>
      ) : (
        // Keyed by the search, so a new search starts on page 1.
        <NumberResults key={searched} numbers={results.data.numbers} onBuy={setBuying} buyDisabled={blocked} />
      )}

      <PurchaseDialog phoneNumber={buying?.phoneNumber ?? null} onClose={() => setBuying(null)} fallbackFocus={afterPurchase} />
    </div>
  );
}

function ResultsSkeleton() {
  return (
    <div className="grid gap-2" aria-busy="true">
      <Spinner label={PHONE_TEXT.searching} className="size-4" />
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} className="h-14 rounded-lg" />
      ))}
    </div>
  );
}
