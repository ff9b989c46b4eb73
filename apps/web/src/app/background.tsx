import { AppUpdateWatch } from "../features/settings/components/app-update-watch.tsx";
import { DomainEventWatch } from "../shared/realtime/index.ts";
import { MessageCenterWatch } from "../shared/realtime/message-channel.ts";

/**
 * What the app runs besides its screens: the app-update and web-version checks, the message centre
 * (hub 2, push binding) and the domain events of hub 1 (changes made elsewhere refetch what they touch).
 * Loaded after the first screen has painted, so none of it competes with that screen; see app.tsx.
 */
export function BackgroundWatchers() {
  return (
    <>
      <AppUpdateWatch />
      <MessageCenterWatch />
      <DomainEventWatch />
    </>
  );
}
