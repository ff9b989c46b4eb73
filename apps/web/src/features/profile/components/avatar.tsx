import { imageUrl } from "../../../shared/api/api-host.ts";
import { FallbackImage } from "../../../shared/ui/fallback-image.tsx";
import "../profile.css";

/**
 * A round avatar: the image (relative paths get the API host prefixed, spec §7 "Images") or, without one or when it
 * fails to load, the first letter of the name.
 */
export function Avatar(props: { src: string | null | undefined; name: string; size?: string; testId?: string }) {
  const url = imageUrl(props.src);
  const style = props.size ? { width: props.size, height: props.size } : undefined;
  return (
    <span className="avatar" style={style} data-testid={props.testId}>
      <FallbackImage
        src={url}
        alt=""
        fallback={<span className="avatar__letter">{(props.name || "?").slice(0, 1).toUpperCase()}</span>}
      />
    </span>
  );
}
