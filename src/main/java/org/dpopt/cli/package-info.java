/**
 * The {@code dpopt} command ({@link org.dpopt.cli.Main}, picocli): {@code demo}, {@code train},
 * {@code account}, {@code bench} and the other subcommands. The contract: {@code --json} prints exactly
 * one JSON object on stdout; bad arguments or input exit with code 2 and one line
 * {@code dpopt: <name> must be <condition> but was <value>} on stderr, writing nothing; ∞ and NaN are
 * never printed as strings. {@code train} offers one {@code AlgorithmSpec} per algorithm (its name,
 * typed flags with defaults, and how it builds the optimizer).
 */
package org.dpopt.cli;
