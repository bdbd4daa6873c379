// Pathless layout of every private route: auth guard and sidebar.
import { createFileRoute } from "@tanstack/react-router";
import { AppLayout } from "@web/components/layout/app-layout";

export const Route = createFileRoute("/_app")({ component: AppLayout });
