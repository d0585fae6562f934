/** Ids of the sandbox's demo world that the tests lean on (apps/sandbox/fixtures/demo.json). */
export const USERS = {
  alice: '1200000000000000001', // owner of Pixel Forge, plain member of Night Owls
  bruno: '1200000000000000002', // admin (ADMINISTRATOR) of Pixel Forge, owner of Night Owls
  chen: '1200000000000000003', // admin (MANAGE_GUILD) of Study Hall, owner of Quiet Garden (no bot)
  dana: '1200000000000000004', // holds "Support Staff" in Pixel Forge and Study Hall
  eli: '1200000000000000005', // member everywhere
} as const;

export const GUILDS = {
  pixelForge: '1300000000000000001',
  nightOwls: '1300000000000000002',
  studyHall: '1300000000000000003',
  quietGarden: '1300000000000000004', // the bot is not here
} as const;

export const SUPPORT_STAFF_ROLE = { pixelForge: '1300000000000000013', studyHall: '1300000000000000032' } as const;
