/**
 * Company-wide data has no place: roles and permissions, the services catalogue, dealerships and subdealerships
 * (and, as they arrive, levels, ingredients, providers, offers, dishes and recipes). Place scope cannot guard it,
 * so the permissions that change it take effect only through assignments in a headquarters area; a role held in
 * a cafe area never grants them (decision 008). Reading this data follows the role wherever it is held.
 */
export const COMPANY_WIDE_PERMISSIONS: ReadonlySet<string> = new Set(["roles.manage", "services.manage", "dealerships.manage"]);

/** Whether `permission` changes company-wide data (and so counts only when held at headquarters). */
export function isCompanyWide(permission: string): boolean {
  return COMPANY_WIDE_PERMISSIONS.has(permission);
}
