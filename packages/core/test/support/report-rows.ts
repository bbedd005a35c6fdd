import type { MerchantRow } from '../../src';

/** A merchant row of user `u`, as the report index tests build their accounts. */
export const merchantRow = (id: string, name: string, city: string | null): MerchantRow => ({
  merchant_id: id,
  name,
  phone_number: null,
  postal_code: null,
  city,
  street_address: null,
  user_id: 'u',
  owning_corporation: null,
  name_key: name.toLowerCase(),
});
