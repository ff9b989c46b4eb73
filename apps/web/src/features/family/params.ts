/**
 * Navigation params of the household screens (spec §2: params travel as JSON in one query value; screens read them
 * with `useRouteParams<T>()`).
 */

/** Screens that show one family: FamilyDetails, FamilyUpdate, FamilyQrcode, FamilyUserList. */
export interface FamilyParams {
  familyId?: string;
}
