// /phone-numbers (docs/product/screens-and-routes.md#route-table): tabs 'My numbers' and 'Buy Phone Number'. Both panels stay
// mounted so a search survives a look at the other tab.
import { NAV_TEXT, PHONE_TEXT } from "@shared/messages";
import { PageHeader } from "@web/components/layout/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@web/components/ui/tabs";
import { PHONE_TABS, type PhoneTab } from "../phone-numbers-search";
import { BuyNumberPanel } from "./buy-number-panel";
import { MyNumbers } from "./my-numbers";

const isTab = (v: string): v is PhoneTab => (PHONE_TABS as readonly string[]).includes(v);

type PhoneNumbersPageProps = { userId: string; email?: string; tab?: PhoneTab; onTabChange: (tab: PhoneTab) => void };

export function PhoneNumbersPage({ userId, email, tab = "mine", onTabChange }: PhoneNumbersPageProps) {
  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader title={NAV_TEXT.phoneNumbers} description={PHONE_TEXT.intro} />
      <Tabs value={tab} onValueChange={(v) => isTab(v) && onTabChange(v)}>
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="mine" className="flex-1 sm:flex-none">
            {PHONE_TEXT.myNumbers}
          </TabsTrigger>
          <TabsTrigger value="buy" className="flex-1 sm:flex-none">
            {PHONE_TEXT.buy}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="mine" forceMount className="data-[state=inactive]:hidden">
          <MyNumbers userId={userId} />
        </TabsContent>
        <TabsContent value="buy" forceMount className="data-[state=inactive]:hidden">
          <BuyNumberPanel email={email} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
