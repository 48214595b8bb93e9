// How nvlink's --dump-callgraph spells a function name.
//
// nvlink demangles with its own (EDG-style) demangler, which differs from
// the C++ runtime's in ways measured on nvlink 13.0 (docs/nvlink-findings.md):
//   * template-parameter references stay unsubstituted: T_ is "T1", T0_ is
//     "T2" ("T1 ns::twice<float>(T1)");
//   * cv-qualifiers come first, '*'/'&' follow a blank ("const T1 *"),
//     except after a class named by a substitution taken from the function's
//     own qualifier ("ns::S::m(const ns::S&) const");
//   * literal template arguments are casts ("(int)-4", "(bool)1");
//   * the unnamed namespace is "<unnamed>" and nvcc's "_INTERNAL_<hash>"
//     module qualifier is dropped;
//   * a lambda is "[lambda(int) (instance N)]" (N is its index, from 1);
//   * an operator is "operator <" (blank before the symbol).
//   * decltype is "decltype((param#1+(int)1))".
// Constructs not measured (conversion operators, ABI tags, most standard
// abbreviations, …) make the parser give up; the caller then falls back to
// demangleForMessage, the spelling nvlink's messages use.
#include "culd/SymbolNames.h"

#include <cctype>
#include <string>
#include <vector>

namespace culd {

namespace {

// A type as text split around where a declarator goes: "int (*" + ")[3]".
// `left` alone is the spelling of a simple type.
struct TypeText {
    std::string left, right;
    // Named by a substitution of the function's own qualifier: nvlink writes
    // no blank before a following '*' or '&'.
    bool noBlank = false;
    bool simple() const { return right.empty(); }
    std::string full() const { return left + right; }
};

struct Failure {};

class Demangler {
public:
    explicit Demangler(std::string_view s) : in(s) {}

    std::string encodingOnly() {
        std::string out = encoding(/*top=*/true);
        if (pos != in.size())
            fail();
        return out;
    }

private:
    std::string_view in;
    size_t pos = 0;
    std::vector<TypeText> subs;
    // Set while reading the qualifier of a function's own name.
    bool inFunctionName = false;

    [[noreturn]] static void fail() { throw Failure{}; }
    char peek(size_t ahead = 0) const { return pos + ahead < in.size() ? in[pos + ahead] : '\0'; }
    bool consume(char c) {
        if (peek() != c)
            return false;
        ++pos;
        return true;
    }
    bool consume(std::string_view s) {
        if (in.substr(pos, s.size()) != s)
            return false;
        pos += s.size();
        return true;
    }
    void expect(char c) {
        if (!consume(c))
            fail();
    }
    void addSub(TypeText t) { subs.push_back(std::move(t)); }
    void addSub(const std::string &name) {
        TypeText t;
        t.left = name;
        t.noBlank = inFunctionName;
        subs.push_back(t);
    }

    size_t number() {
        size_t n = 0;
        if (!isdigit(static_cast<unsigned char>(peek())))
            fail();
        while (isdigit(static_cast<unsigned char>(peek())))
            n = n * 10 + static_cast<size_t>(in[pos++] - '0');
        return n;
    }

    // The encoding of a function: its name, then (for a template) its return
    // type, then its parameters.
    std::string encoding(bool top) {
        bool savedFn = inFunctionName;
        inFunctionName = true;
        NameInfo name = this->name();
        inFunctionName = savedFn;
        std::string ret;
        if (name.templated && !name.ctorOrDtor)
            ret = type().full() + ' ';
        std::string params = parameterList(top ? '\0' : 'E');
        return ret + name.text + "(" + params + ")" + name.cvSuffix;
    }

    std::string parameterList(char end) {
        if (peek() == 'v' && (pos + 1 == in.size() || peek(1) == end)) {
            ++pos;
            return "";
        }
        std::string out;
        while (pos < in.size() && peek() != end) {
            if (!out.empty())
                out += ", ";
            out += type().full();
        }
        return out;
    }

    struct NameInfo {
        std::string text;
        std::string cvSuffix;
        bool templated = false;
        bool ctorOrDtor = false;
    };

    NameInfo name() {
        if (peek() == 'N')
            return nestedName();
        if (peek() == 'Z')
            return localName();
        NameInfo info;
        if (consume("St")) {
            UnqualifiedName u = unqualifiedName("");
            info.text = "std::" + u.text;
        } else {
            consume('L'); // internal linkage
            info.text = unqualifiedName("").text;
        }
        if (peek() == 'I') {
            addSub(info.text);
            info.text += templateArgs();
            info.templated = true;
        }
        return info;
    }

    NameInfo localName() {
        expect('Z');
        std::string function = encoding(/*top=*/false);
        expect('E');
        if (peek() == 's' || peek() == 'd')
            fail();
        NameInfo entity = name();
        if (peek() == '_')
            fail(); // discriminator: spelling not measured
        entity.text = function + "::" + entity.text;
        return entity;
    }

    struct UnqualifiedName {
        std::string text;
        std::string sourceName; // for a constructor's spelling
        bool ctorOrDtor = false;
        bool dropped = false;   // nvcc's _INTERNAL_ module qualifier
        // D0: "~S() [deleting]"; C2/D2 (the base-object constructor and
        // destructor, which have code of their own under -G): "S() [subobject]".
        const char *suffix = "";
    };

    UnqualifiedName unqualifiedName(const std::string &enclosingClass) {
        UnqualifiedName u;
        char c = peek();
        if (isdigit(static_cast<unsigned char>(c))) {
            size_t n = number();
            if (pos + n > in.size())
                fail();
            std::string_view id = in.substr(pos, n);
            pos += n;
            u.sourceName = std::string(id);
            if (id.substr(0, 10) == "_GLOBAL__N")
                u.text = "<unnamed>";
            else if (id.substr(0, 10) == "_INTERNAL_")
                u.dropped = true;
            else
                u.text = u.sourceName;
        } else if (c == 'C' && (peek(1) == '1' || peek(1) == '2' || peek(1) == '3')) {
            if (peek(1) == '2')
                u.suffix = " [subobject]";
            pos += 2;
            u.text = enclosingClass;
            u.ctorOrDtor = true;
        } else if (c == 'D' && (peek(1) == '0' || peek(1) == '1' || peek(1) == '2')) {
            u.suffix = peek(1) == '0' ? " [deleting]" : peek(1) == '2' ? " [subobject]" : "";
            pos += 2;
            u.text = "~" + enclosingClass;
            u.ctorOrDtor = true;
        } else if (c == 'U' && peek(1) == 'l') {
            u.text = lambda();
        } else if (islower(static_cast<unsigned char>(c))) {
            u.text = "operator " + operatorSymbol();
        } else {
            fail();
        }
        if (u.text.empty() && !u.dropped)
            fail();
        return u;
    }

    std::string lambda() {
        pos += 2;
        std::string params = parameterList('E');
        expect('E');
        size_t index = 1;
        if (!consume('_')) {
            index = number() + 2;
            expect('_');
        }
        return "[lambda(" + params + ") (instance " + std::to_string(index) + ")]";
    }

    std::string operatorSymbol() {
        static const struct {
            const char *code, *symbol;
        } table[] = {
            {"nw", "new"}, {"na", "new[]"}, {"dl", "delete"}, {"da", "delete[]"}, {"ps", "+"},
            {"ng", "-"},   {"ad", "&"},     {"de", "*"},      {"co", "~"},        {"pl", "+"},
            {"mi", "-"},   {"ml", "*"},     {"dv", "/"},      {"rm", "%"},        {"an", "&"},
            {"or", "|"},   {"eo", "^"},     {"aS", "="},      {"pL", "+="},       {"mI", "-="},
            {"mL", "*="},  {"dV", "/="},    {"rM", "%="},     {"aN", "&="},       {"oR", "|="},
            {"eO", "^="},  {"ls", "<<"},    {"rs", ">>"},     {"lS", "<<="},      {"rS", ">>="},
            {"eq", "=="},  {"ne", "!="},    {"lt", "<"},      {"gt", ">"},        {"le", "<="},
            {"ge", ">="},  {"nt", "!"},     {"aa", "&&"},     {"oo", "||"},       {"pp", "++"},
            {"mm", "--"},  {"cm", ","},     {"pm", "->*"},    {"pt", "->"},       {"cl", "()"},
            {"ix", "[]"},
        };
        for (const auto &op : table)
            if (consume(std::string_view(op.code, 2)))
                return op.symbol;
        fail();
    }

    // N [cv] prefix... E. Every prefix is a substitution candidate; the last
    // one too when the name is a type, not when it names the function.
    NameInfo nestedName() {
        expect('N');
        NameInfo info;
        while (peek() == 'K' || peek() == 'V' || peek() == 'r') {
            char q = in[pos++];
            if (q == 'r')
                fail();
            info.cvSuffix = (q == 'K' ? " const" : " volatile") + info.cvSuffix;
        }
        if (peek() == 'R' || peek() == 'O')
            fail();
        bool isFunctionName = inFunctionName;
        std::string lastSource;
        bool first = true;
        while (!consume('E')) {
            bool candidate = true;
            if (peek() == 'I') {
                if (first)
                    fail();
                info.text += templateArgs();
                info.templated = true;
            } else if (peek() == 'S' && first) {
                if (consume("St")) {
                    info.text = "std";
                    candidate = false;
                } else {
                    info.text = substitution().full();
                    candidate = false; // already one
                }
                info.templated = false;
            } else if (peek() == 'T' && first) {
                info.text = templateParam();
            } else {
                UnqualifiedName u = unqualifiedName(lastSource);
                if (!u.dropped)
                    info.text = (info.text.empty() ? "" : info.text + "::") + u.text;
                if (!u.sourceName.empty())
                    lastSource = u.sourceName;
                info.ctorOrDtor = u.ctorOrDtor;
                info.templated = false;
                info.cvSuffix += u.suffix;
            }
            first = false;
            if (candidate && !(isFunctionName && peek() == 'E'))
                addSub(info.text);
        }
        return info;
    }

    std::string templateParam() {
        expect('T');
        size_t n = 1;
        if (!consume('_')) {
            n = number() + 2;
            expect('_');
        }
        return "T" + std::to_string(n);
    }

    TypeText substitution() {
        expect('S');
        size_t index = 0;
        if (!consume('_')) {
            size_t n = 0;
            while (peek() != '_') {
                char c = peek();
                if (isdigit(static_cast<unsigned char>(c)))
                    n = n * 36 + static_cast<size_t>(c - '0');
                else if (c >= 'A' && c <= 'Z')
                    n = n * 36 + static_cast<size_t>(c - 'A' + 10);
                else
                    fail(); // St, Sa, Ss...: standard abbreviations
                ++pos;
            }
            ++pos;
            index = n + 1;
        }
        if (index >= subs.size())
            fail();
        return subs[index];
    }

    std::string templateArgs() {
        expect('I');
        std::vector<std::string> args;
        while (!consume('E'))
            templateArg(args);
        std::string out = "<";
        for (size_t i = 0; i < args.size(); ++i)
            out += (i ? ", " : "") + args[i];
        return out + ">";
    }

    void templateArg(std::vector<std::string> &args) {
        if (consume('J')) {
            while (!consume('E'))
                templateArg(args);
        } else if (peek() == 'L') {
            args.push_back(literal());
        } else if (consume('X')) {
            // Only an expression that is a template parameter ("array<int, T1>");
            // as an expression it is no substitution candidate.
            if (peek() != 'T')
                fail();
            args.push_back(templateParam());
            expect('E');
        } else {
            args.push_back(type().full());
        }
    }

    std::string literal() {
        expect('L');
        if (peek() == 'Z' || peek() == '_')
            fail();
        std::string t = builtin();
        if (t.empty() && (peek() == 'N' || isdigit(static_cast<unsigned char>(peek()))))
            t = type().full(); // an enumerator: "(cub::SortOrder)1"
        if (t.empty())
            fail();
        std::string value;
        if (consume('n'))
            value = "-";
        size_t start = pos;
        while (isdigit(static_cast<unsigned char>(peek())))
            ++pos;
        if (pos == start)
            fail();
        value += std::string(in.substr(start, pos - start));
        expect('E');
        return "(" + t + ")" + value;
    }

    // A builtin type's spelling, "" (nothing consumed) when there is none.
    std::string builtin() {
        static const struct {
            const char *code, *spelling;
        } table[] = {
            {"v", "void"},       {"w", "wchar_t"},        {"b", "bool"},
            {"c", "char"},       {"a", "signed char"},    {"h", "unsigned char"},
            {"s", "short"},      {"t", "unsigned short"}, {"i", "int"},
            {"j", "unsigned int"}, {"l", "long"},         {"m", "unsigned long"},
            {"x", "long long"},  {"y", "unsigned long long"}, {"f", "float"},
            {"d", "double"},     {"e", "long double"},    {"z", "..."},
            {"Ds", "char16_t"},  {"Di", "char32_t"},      {"Da", "auto"},
        };
        for (const auto &b : table)
            if (consume(std::string_view(b.code)))
                return b.spelling;
        return "";
    }

    TypeText type() {
        TypeText t;
        std::string b = builtin();
        if (!b.empty()) {
            t.left = b;
            return t;
        }
        char c = peek();
        switch (c) {
        case 'K':
        case 'V':
        case 'r':
            t = qualified();
            break;
        case 'P':
        case 'R':
        case 'O':
            ++pos;
            t = declarator(type(), c == 'P' ? "*" : c == 'R' ? "&" : "&&");
            break;
        case 'F':
            t = functionType();
            break;
        case 'A':
            t = arrayType();
            break;
        case 'M':
            t = memberPointer();
            break;
        case 'T':
            t.left = templateParam();
            if (peek() == 'I') {
                addSub(t);
                t.left += templateArgs();
            }
            break;
        case 'S':
            if (peek(1) == 't') {
                t.left = name().text;
                break;
            }
            t = substitution();
            if (peek() != 'I')
                return t; // a substitution is not a new candidate
            t.left += templateArgs();
            t.noBlank = false;
            break;
        case 'D':
            if (peek(1) == 'T' || peek(1) == 't') {
                // nvlink: "decltype((param#1+(int)1))", for DT and Dt alike.
                pos += 2;
                t.left = "decltype((" + expression().text + "))";
                expect('E');
                break;
            }
            if (peek(1) != 'p')
                fail();
            pos += 2;
            t = type();
            t.left = t.full() + "...";
            t.right.clear();
            t.noBlank = false;
            break;
        case 'N':
        case 'Z':
        default:
            if (c != 'N' && c != 'Z' && !isdigit(static_cast<unsigned char>(c)))
                fail();
            {
                bool savedFn = inFunctionName;
                inFunctionName = false;
                NameInfo n = name();
                inFunctionName = savedFn;
                if (!n.cvSuffix.empty())
                    fail();
                t.left = n.text;
            }
            if (c == 'N')
                return t; // its last prefix was the candidate
            break;
        }
        addSub(t);
        return t;
    }

    // An expression as nvlink writes it in a decltype: binary operators
    // without blanks and never parenthesised, even where precedence needs it
    // (x * (y + 1) is "param#1*param#2+(int)1"); casts as "(T1)param#1";
    // member calls as "(param#1.get)()". The operand of a unary operator,
    // cast or call being a binary expression is not measured: not modelled.
    struct Expr {
        std::string text;
        bool binary = false;
        bool memberAccess = false;
    };

    Expr expression() {
        Expr e;
        if (consume("fp")) {
            size_t n = 1;
            if (!consume('_')) {
                n = number() + 2;
                expect('_');
            }
            e.text = "param#" + std::to_string(n);
        } else if (peek() == 'L') {
            e.text = literal();
        } else if (peek() == 'T') {
            e.text = templateParam(); // no substitution candidate here
        } else if (isdigit(static_cast<unsigned char>(peek()))) {
            e.text = unqualifiedName("").text;
        } else if (consume("cv")) {
            std::string to = type().full();
            e.text = "(" + to + ")" + operand(expression());
        } else if (consume("cl")) {
            Expr callee = expression();
            std::string args;
            while (!consume('E'))
                args += (args.empty() ? "" : ", ") + expression().text;
            e.text = (callee.memberAccess ? "(" + callee.text + ")" : operand(callee)) + "(" +
                     args + ")";
        } else if (consume("dt")) {
            std::string object = operand(expression());
            if (!isdigit(static_cast<unsigned char>(peek())))
                fail();
            e.text = object + "." + unqualifiedName("").text;
            e.memberAccess = true;
        } else if (const char *op = unaryOperator()) {
            e.text = op + operand(expression());
        } else {
            const char *symbol = binaryOperator();
            Expr left = expression();
            e.text = left.text + symbol + expression().text;
            e.binary = true;
        }
        return e;
    }

    // An operand of a unary operator, cast or call: no binary expression.
    static std::string operand(const Expr &e) {
        if (e.binary)
            fail();
        return e.text;
    }

    const char *unaryOperator() {
        static const struct {
            const char *code, *symbol;
        } table[] = {{"ng", "-"}, {"ps", "+"}, {"nt", "!"}, {"co", "~"}, {"de", "*"}, {"ad", "&"}};
        for (const auto &op : table)
            if (consume(std::string_view(op.code, 2)))
                return op.symbol;
        return nullptr;
    }

    const char *binaryOperator() {
        static const struct {
            const char *code, *symbol;
        } table[] = {
            {"ml", "*"},  {"dv", "/"},  {"rm", "%"},  {"pl", "+"},  {"mi", "-"},  {"ls", "<<"},
            {"rs", ">>"}, {"lt", "<"},  {"gt", ">"},  {"le", "<="}, {"ge", ">="}, {"eq", "=="},
            {"ne", "!="}, {"an", "&"},  {"eo", "^"},  {"or", "|"},  {"aa", "&&"}, {"oo", "||"},
        };
        for (const auto &op : table)
            if (consume(std::string_view(op.code, 2)))
                return op.symbol;
        fail();
    }

    TypeText qualified() {
        bool isConst = false, isVolatile = false;
        while (peek() == 'K' || peek() == 'V' || peek() == 'r') {
            char q = in[pos++];
            if (q == 'r')
                fail();
            (q == 'K' ? isConst : isVolatile) = true;
        }
        TypeText inner = type();
        if (!inner.simple())
            fail();
        std::string cv = std::string(isConst ? "const" : "") + (isConst && isVolatile ? " " : "") +
             (isVolatile ? "volatile" : "");
        char last = inner.left.empty() ? '\0' : inner.left.back();
        if (last == '*' || last == '&')
            inner.left += cv;
        else
            inner.left = cv + " " + inner.left;
        return inner;
    }

    // A pointer or reference to `base`.
    static TypeText declarator(TypeText base, const std::string &op) {
        TypeText t;
        if (!base.simple()) {
            t.left = base.left + "(" + op;
            t.right = ")" + base.right;
            return t;
        }
        char last = base.left.empty() ? '\0' : base.left.back();
        bool blank = !base.noBlank && last != '*' && last != '&';
        t.left = base.left + (blank ? " " : "") + op;
        return t;
    }

    TypeText functionType() {
        expect('F');
        if (peek() == 'Y')
            fail();
        TypeText ret = type();
        std::string params = parameterList('E');
        expect('E');
        return withSuffix(ret, "(" + params + ")");
    }

    TypeText arrayType() {
        expect('A');
        // The bound: a number, or a template parameter ("const T1 (&)[T2]").
        std::string bound = peek() == 'T' ? templateParam() : std::to_string(number());
        expect('_');
        return withSuffix(type(), "[" + bound + "]");
    }

    // A function's or array's type: `inner` (a simple type: its return or
    // element type) then a blank, with `suffix` after the declarator.
    TypeText withSuffix(const TypeText &inner, std::string suffix) {
        if (!inner.simple())
            fail();
        TypeText t;
        t.left = inner.left + " ";
        t.right = std::move(suffix);
        return t;
    }

    // nvlink writes "int  :: ns::S::*" and "int ( :: ns::S::*)(int) const".
    TypeText memberPointer() {
        expect('M');
        std::string cls = type().full();
        std::string cv;
        while (peek() == 'K' || peek() == 'V') {
            cv += (in[pos] == 'K' ? " const" : " volatile");
            ++pos;
        }
        TypeText member = type();
        TypeText t;
        if (member.simple()) {
            if (!cv.empty())
                fail();
            t.left = member.left + "  :: " + cls + "::*";
            return t;
        }
        if (!cv.empty()) {
            member.right += cv;
            addSub(member); // the cv-qualified function type is a candidate too
        }
        t.left = member.left + "( :: " + cls + "::*";
        t.right = ")" + member.right;
        return t;
    }
};

} // namespace

namespace {

// nvcc names a file-static function "__nv_static_<N>_<N characters>_<name>";
// nvlink demangles <name> (libcudadevrt's memcpy_3d_device kernels).
std::string_view withoutStaticPrefix(std::string_view name) {
    std::string_view prefix = "__nv_static_";
    if (name.substr(0, prefix.size()) != prefix)
        return name;
    size_t i = prefix.size(), n = 0;
    while (i < name.size() && isdigit(static_cast<unsigned char>(name[i])))
        n = n * 10 + static_cast<size_t>(name[i++] - '0');
    if (i == prefix.size() || i >= name.size() || name[i] != '_')
        return name;
    size_t rest = i + 1 + n;
    if (rest >= name.size() || name[rest] != '_' || name.substr(rest + 1, 2) != "_Z")
        return name;
    return name.substr(rest + 1);
}

} // namespace

std::string demangleForCallGraph(std::string_view name) {
    // A clone's "$N" suffix (nvlink's "name$5") is not part of the name.
    std::string_view base = withoutStaticPrefix(name);
    size_t dollar = base.find('$');
    if (dollar != std::string_view::npos && dollar + 1 < base.size() &&
        base.find_first_not_of("0123456789", dollar + 1) == std::string_view::npos)
        base = base.substr(0, dollar);
    if (base.substr(0, 2) != "_Z")
        return std::string(name);
    try {
        return Demangler(base.substr(2)).encodingOnly();
    } catch (const Failure &) {
        return demangleForMessage(base);
    }
}

} // namespace culd
