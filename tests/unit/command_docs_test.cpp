// Man pages and completions from a hand-made command tree (render/man_page,
// render/shell_completion, core/command_doc): escaping and layout. The real
// tree's pages are checked end to end by tests/scenarios/docs_generated.sh.
#include "core/command_doc.hpp"
#include "render/man_page.hpp"
#include "render/shell_completion.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace roofline;

namespace {

CommandDoc sample_tree() {
    CommandDoc root;
    root.path = {"tool"};
    root.description = "tool: does things. Many of them.";
    root.footer = "Examples:\n  tool run --fast   quickly\n.hidden line\nRun 'tool <cmd> --help'.\n"
                  "Exit status:\n  0   Success.\n";
    OptionDoc help;
    help.short_names = {"h"};
    help.long_names = {"help"};
    help.description = "Print this help message and exit";
    help.group = "Options";
    root.options.push_back(help);

    CommandDoc run;
    run.path = {"tool", "run"};
    run.description = "Runs it, e.g. twice. Then stops.\n  indented \\ block\nBack to prose.";
    OptionDoc mode;
    mode.long_names = {"mode"};
    mode.value_name = "TEXT";
    mode.kind = ValueKind::choice;
    mode.choices = {"fast", "slow"};
    mode.default_value = "fast";
    mode.description = "How: fast or slow [really]";
    mode.group = "Options";
    OptionDoc out;
    out.short_names = {"o"};
    out.long_names = {"output"};
    out.value_name = "FILE";
    out.kind = ValueKind::file;
    out.description = "Where to ÷ write";
    out.group = "Options";
    OptionDoc args;
    args.positional_name = "args";
    args.value_name = "TEXT";
    args.kind = ValueKind::text;
    args.repeatable = true;
    args.description = "Its arguments";
    args.group = "Options";
    run.options = {help, mode, out, args};
    run.environment = {{"TOOL_RUN_MODE", "The default of --mode."}};

    CommandDoc nested;
    nested.path = {"tool", "run", "deep"};
    nested.description = "Goes deeper";
    nested.options = {help};
    run.subcommands.push_back(nested);
    root.subcommands.push_back(run);
    return root;
}

const ManPage& page(const std::vector<ManPage>& pages, const std::string& name) {
    for (const auto& p : pages)
        if (p.file_name == name) return p;
    throw std::runtime_error("no page " + name);
}

} // namespace

TEST(CommandSummary, FirstSentenceWithoutTheProgramsPrefix) {
    EXPECT_EQ(command_summary("tool: does things. Many of them."), "tool: does things");
    EXPECT_EQ(command_summary("roofline: how fast?\nCharacterize it."), "how fast?");
    EXPECT_EQ(command_summary("Runs it, e.g. twice. Then stops."), "Runs it, e.g. twice");
    EXPECT_EQ(command_summary("One line,\nwrapped by hand"), "One line, wrapped by hand");
}

TEST(RoffEscape, SpecialsOfRoff) {
    EXPECT_EQ(roff_escape("--output"), "\\-\\-output");
    EXPECT_EQ(roff_escape("a\\b"), "a\\eb");
    EXPECT_EQ(roff_escape(".TH x"), "\\&.TH x");
    EXPECT_EQ(roff_escape("'quoted'"), "\\&'quoted'");
    EXPECT_EQ(roff_escape("mid.dle 'x'"), "mid.dle 'x'");
    EXPECT_EQ(roff_escape("\xC3\xB7"), "\\[u00F7]");            // ÷: groff would read its bytes as Latin-1
    EXPECT_EQ(roff_escape("\xE2\x89\xA4"), "\\[u2264]");        // ≤
    EXPECT_EQ(roff_escape("bad \xC3"), "bad \\[uFFFD]");         // a truncated sequence
    EXPECT_EQ(roff_escape("a\x1b[31mb"), "a[31mb");             // no control character reaches the page
}

TEST(ManPages, OnePerCommandNestedIncluded) {
    const auto pages = man_pages(sample_tree(), ManualDoc{"1.2.3", "", {{0, "Success."}}, {}, {"/etc/tool.yaml"}});
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0].file_name, "tool.1");
    EXPECT_EQ(pages[1].file_name, "tool-run.1");
    EXPECT_EQ(pages[2].file_name, "tool-run-deep.1");
}

TEST(ManPages, TopPage) {
    const auto pages = man_pages(sample_tree(), ManualDoc{"1.2.3", "", {{0, "Success."}}, {{"TOOL_X", "x"}}, {"/etc/tool.yaml"}});
    const std::string& text = page(pages, "tool.1").text;
    EXPECT_NE(text.find(".TH \"TOOL\" 1 \"\" \"tool 1.2.3\""), std::string::npos) << text;
    EXPECT_NE(text.find(".SH NAME\ntool \\- tool: does things\n"), std::string::npos) << text;
    EXPECT_NE(text.find(".SH COMMANDS\n.TP\n\\fBrun\\fR\nRuns it, e.g. twice; see \\fBtool\\-run\\fR(1).\n"),
              std::string::npos)
        << text;
    // Examples: the indented lines kept as they are; the prose after them a note, where a line
    // starting with '.' is text, not a request.
    EXPECT_NE(text.find(".SH EXAMPLES\n.RS 2\n.nf\ntool run \\-\\-fast   quickly\n.fi\n.RE\n.SH NOTES\n\\&.hidden line\n"),
              std::string::npos)
        << text;
    // --help's "Exit status:" paragraph is the EXIT STATUS section here, not a second list.
    EXPECT_EQ(text.find("Exit status:"), std::string::npos) << text;
    EXPECT_NE(text.find(".SH EXIT STATUS\n.TP\n\\fB0\\fR\nSuccess.\n"), std::string::npos) << text;
    EXPECT_NE(text.find(".SH ENVIRONMENT\n.TP\n\\fBTOOL_X\\fR\nx\n"), std::string::npos) << text;
    EXPECT_NE(text.find(".SH FILES"), std::string::npos) << text;
    EXPECT_EQ(text.find("\n\n"), std::string::npos) << "an empty line in roff is a blank line on the page";
}

TEST(ManPages, CommandPage) {
    const auto pages = man_pages(sample_tree(), ManualDoc{"1.2.3", "2024-01-02", {}, {}, {}});
    const std::string& text = page(pages, "tool-run.1").text;
    EXPECT_NE(text.find(".TH \"TOOL-RUN\" 1 \"2024-01-02\""), std::string::npos) << text;
    EXPECT_NE(text.find(".SH SYNOPSIS\n\\fBtool run\\fR [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR] "
                        "[\\fIargs\\fR ...]\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Runs it, e.g. twice. Then stops.\n.RS 2\n.nf\nindented \\e block\n.fi\n.RE\nBack to prose.\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(".TP\n\\fB\\-\\-mode\\fR \\fITEXT\\fR\nHow: fast or slow [really]\n.br\n"
                        "One of: \\fBfast\\fR, \\fBslow\\fR.\n.br\nDefault: \\fBfast\\fR.\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR\nWhere to \\[u00F7] write\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(".SH ARGUMENTS\n.TP\n\\fIargs\\fR ...\nIts arguments\n"), std::string::npos) << text;
    EXPECT_NE(text.find(".SH ENVIRONMENT\n.TP\n\\fBTOOL_RUN_MODE\\fR\n"), std::string::npos) << text;
    EXPECT_NE(text.find(".SH SEE ALSO\n\\fBtool\\fR(1),\n\\fBtool\\-run\\-deep\\fR(1)\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("EXIT STATUS"), std::string::npos) << "only the top page lists the exit codes";
}

TEST(BashCompletion, TablesOfCommandsOptionsAndValues) {
    const std::string script = bash_completion(sample_tree());
    EXPECT_NE(script.find("        tool) printf '%s\\n' 'run' ;;"), std::string::npos) << script;
    EXPECT_NE(script.find("        tool_run) printf '%s\\n' 'deep' ;;"), std::string::npos) << script;
    EXPECT_NE(script.find("tool_run) printf '%s\\n' '-h' '--help' '--mode' '-o' '--output' ;;"), std::string::npos)
        << script;
    EXPECT_NE(script.find("--mode) echo 'choice fast slow' ;;"), std::string::npos) << script;
    EXPECT_NE(script.find("-o|--output) echo 'file' ;;"), std::string::npos) << script;
    EXPECT_NE(script.find("complete -F _tool tool\n"), std::string::npos) << script;
}

TEST(ZshCompletion, SpecsWithDescriptions) {
    const std::string script = zsh_completion(sample_tree());
    EXPECT_EQ(script.rfind("#compdef tool\n", 0), 0u) << script;
    EXPECT_NE(script.find("_tool__run__deep() {"), std::string::npos) << script;
    auto leaf = sample_tree();
    leaf.subcommands[0].subcommands.clear();  // a command's arguments are completed where it has no commands
    EXPECT_NE(zsh_completion(leaf).find("'*:args:_files'"), std::string::npos) << zsh_completion(leaf);
    EXPECT_NE(script.find("'--mode=[How: fast or slow \\[really\\]]:TEXT:(fast slow)'"), std::string::npos) << script;
    EXPECT_NE(script.find("'(-o --output)-o+[Where to ÷ write]:FILE:_files'"), std::string::npos) << script;
    EXPECT_NE(script.find("'run:Runs it, e.g. twice'"), std::string::npos) << script;
    EXPECT_NE(script.find("\n_tool \"$@\"\n"), std::string::npos) << script;
}

TEST(ShellQuote, SingleQuotes) {
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
}
