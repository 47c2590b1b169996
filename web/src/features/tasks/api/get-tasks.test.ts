import { defaultSort, filtersFromSearch, filtersToSearch, sortOptionsFor } from '@/features/tasks/api/get-tasks';

describe('browse filters in the URL', () => {
  it('reads every filter, trimmed and typed', () => {
    const params = new URLSearchParams({
      q: '  leaking tap ',
      category: '3',
      location: ' Newtown NSW 2042 ',
      min_budget: '50',
      max_budget: '120.5',
      sort: 'budget_desc',
      near: '-33.8978,151.1785',
      radius_km: '25',
    });
    expect(filtersFromSearch(params)).toEqual({
      q: 'leaking tap',
      category: 3,
      location: 'Newtown NSW 2042',
      min_budget: 50,
      max_budget: 120.5,
      sort: 'budget_desc',
      near: '-33.8978,151.1785',
      radius_km: 25,
    });
  });

  it('drops what is malformed, out of range or empty, and keeps the rest', () => {
    const cases: Array<[string, string]> = [
      ['category', 'abc'],
      ['category', '0'],
      ['category', '17'],
      ['category', '2.5'],
      ['min_budget', '-5'],
      ['max_budget', 'lots'],
      ['max_budget', 'Infinity'],
      ['sort', 'cheapest'],
      ['near', 'here'],
      ['near', '-33.9,'],
      ['radius_km', '150'],
      ['radius_km', '0'],
      ['radius_km', '7.5'],
      ['q', '   '],
      ['location', ''],
    ];
    for (const [key, value] of cases) {
      const params = new URLSearchParams({ [key]: value, sort: key === 'sort' ? value : 'newest' });
      const expected = key === 'sort' ? {} : { sort: 'newest' };
      expect(filtersFromSearch(params), `${key}=${value}`).toEqual(expected);
    }
    expect(filtersFromSearch(new URLSearchParams('unknown=1'))).toEqual({});
  });

  it('swaps a minimum budget above the maximum, as the filter form does', () => {
    expect(filtersFromSearch(new URLSearchParams('min_budget=200&max_budget=50'))).toEqual({ min_budget: 50, max_budget: 200 });
    expect(filtersFromSearch(new URLSearchParams('min_budget=50&max_budget=50'))).toEqual({ min_budget: 50, max_budget: 50 });
    expect(filtersFromSearch(new URLSearchParams('min_budget=200'))).toEqual({ min_budget: 200 });
  });

  it('writes the filters back to the same query', () => {
    const filters = filtersFromSearch(new URLSearchParams('q=tap&category=4&radius_km=10&near=1.5,2'));
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch(filters).toString()).toBe('q=tap&category=4&near=1.5%2C2&radius_km=10');
  });
});

describe('the sort of a search', () => {
  it('is Best match by default with search words, Newest without', () => {
    expect(defaultSort({ q: 'fence' })).toBe('best_match');
    expect(defaultSort({ q: '   ' })).toBe('newest');
    expect(defaultSort({})).toBe('newest');
  });

  it('offers Best match only when there is something to match', () => {
    expect(sortOptionsFor({ q: 'fence' }).map((option) => option.value)).toContain('best_match');
    expect(sortOptionsFor({}).map((option) => option.value)).not.toContain('best_match');
    expect(filtersFromSearch(new URLSearchParams({ q: 'tap', sort: 'best_match' })).sort).toBe('best_match');
  });
});
