import { FAMILY_AVATAR_PRESETS } from "@aquapilot/contract";
import { imageUrl } from "../../../shared/api/api-host.ts";

/** The preset household pictures shipped with the web app (apps/web/public/family-avatars), as avatar paths. */
export const PRESET_AVATARS: readonly string[] = FAMILY_AVATAR_PRESETS;

/**
 * A family's avatar: its picture (a preset or an uploaded image, spec §7 "Images") or, without one, the name's first
 * letter on the brand colour. `size` in rem (1 rem = 37.5 px).
 */
export function FamilyAvatar(props: { name: string; avatar: string | null; size?: number; testId?: string }) {
  const { name, avatar, size = 1.173, testId } = props;
  const src = imageUrl(avatar);
  const style = { width: `${size}rem`, height: `${size}rem`, fontSize: `${size * 0.45}rem` };
  return (
    <span className="family-avatar" style={style} data-testid={testId}>
      {src ? <img src={src} alt="" /> : (name.trim() || "?").slice(0, 1).toUpperCase()}
    </span>
  );
}
