/** The AquaPilot mark: a water drop in a rounded tile (inline SVG, scales with font size). */
export function BrandMark({ size = "1.6rem" }: { size?: string }) {
  return (
    <svg className="brand-mark" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="16" fill="#ffffff" />
      <path d="M32 11C25 21 17.5 29.5 17.5 38a14.5 14.5 0 0 0 29 0C46.5 29.5 39 21 32 11z" fill="#0093dd" />
      <path d="M25.5 40a6.5 6.5 0 0 0 6.5 6.5" stroke="#ffffff" strokeWidth="3.2" fill="none" strokeLinecap="round" />
    </svg>
  );
}
