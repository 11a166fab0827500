import SCLMCommands

await SCLM.main()
